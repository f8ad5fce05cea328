"""Levenberg-Marquardt for the small, smooth fits of a still's camera (8 to 10 parameters,
a few dozen residuals), in numpy: scipy.optimize would cost `varroom still` 0.3 s of imports
for one call.

The method is MINPACK's (what `scipy.optimize.least_squares(method="lm", x_scale="jac")`
runs): the damping is scaled by the Jacobian's column norms, so that parameters of different
units (a rotation, metres, a log focal length) take steps of comparable effect; the Jacobian
is taken by forward differences.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

_EPS = float(np.finfo(float).eps)
_TOLERANCE = 1e-12  # relative change of the cost or the parameters at which the fit stops
_MAX_ITERATIONS = 500


def jacobian(residuals: Callable[[Floats], Floats], theta: Floats, at: Floats) -> Floats:
    """d residuals / d theta at theta (where the residuals are `at`), by forward differences."""
    columns = []
    for j in range(theta.size):
        step = np.sqrt(_EPS) * max(abs(float(theta[j])), 1.0)
        moved = theta.copy()
        moved[j] += step
        columns.append((residuals(moved) - at) / step)
    return np.column_stack(columns)


def levenberg_marquardt(
    residuals: Callable[[Floats], Floats], start: Floats
) -> tuple[Floats, Floats]:
    """theta minimising |residuals(theta)|^2 from `start`, and the Jacobian there."""
    theta = np.asarray(start, dtype=float).copy()
    at = residuals(theta)
    cost = float(at @ at)
    jac = jacobian(residuals, theta, at)
    damping = 1e-3
    for _ in range(_MAX_ITERATIONS):
        scale = np.maximum(np.linalg.norm(jac, axis=0), 1e-12) ** 2
        gradient = jac.T @ at
        step = np.linalg.solve(jac.T @ jac + damping * np.diag(scale), -gradient)
        trial = theta + step
        trial_at = residuals(trial)
        trial_cost = float(trial_at @ trial_at)
        if trial_cost < cost:
            small_gain = cost - trial_cost <= _TOLERANCE * cost
            small_step = np.linalg.norm(step) <= _TOLERANCE * (np.linalg.norm(theta) + _TOLERANCE)
            theta, at, cost = trial, trial_at, trial_cost
            jac = jacobian(residuals, theta, at)
            damping = max(damping / 10.0, 1e-15)
            if small_gain or small_step:
                break
        else:
            damping *= 10.0
            if damping > 1e15:  # no step lowers the cost: a minimum, as far as floats tell
                break
    return theta, jac
