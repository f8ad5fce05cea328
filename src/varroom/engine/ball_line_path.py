"""The ball's path between tracking samples, and how far past each boundary line it got.

The fit (docs/ball-line.md): around every interior sample k, the quadratic per axis through
samples k-1, k, k+1 (any spacing), p_k(tau) = v_k + b_k tau + a_k tau^2 with tau = t - t_k. It
is exact for a ball with constant acceleration over two sample intervals (straight, a parabola
in the air, a curl with constant sideways pull), and off by about |v'''| h^3 / 16 otherwise: a
hundredth of a millimetre for a hard-curling shot at 25 Hz. The path's furthest point past a
line is the largest of the samples and of the vertices of the concave quadratics around local
maxima of the samples, where the curvature is one a ball in flight can have: a ball that crosses
and curls back between two samples is caught by the vertex. The first moment wholly over is the root of the local quadratic in the first interval
where the path goes past the line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

# A local quadratic bending more than SMOOTH_FLIGHT_MPS2 is a kick, a bounce off the frame or a
# jump in the tracking: its vertex says nothing about the path, and only the samples count there.
from varroom.engine.ball_line_contacts import (
    SMOOTH_FLIGHT_MPS2,
    Contacts,
    Corner,
    Flight,
    roots_within,
)
from varroom.law.ball_line import outer_edge_m
from varroom.model.ball_line import BallTrack, Contact, Line
from varroom.model.situation import Pitch

Floats = npt.NDArray[np.float64]

LINES = tuple(Line)
NO_CONTACTS = Contacts((), ())
_AXES = np.array([line.axis for line in LINES])
_SIGNS = np.array([line.sign for line in LINES])


@dataclass(frozen=True, slots=True)
class LineReach:
    """How far the ball's path got past one line."""

    line: Line
    margin_m: float  # largest distance of the ball's nearest point past the outer edge
    peak_t_s: float  # when the path got furthest
    peak_lag_s: float  # how far that moment lies from the nearest sample (0: a sample)
    se_factor: float  # the margin's standard error per metre of sample noise
    sample_margin_m: float  # the same, from the samples alone
    crossed_at_t_s: float | None  # first moment wholly over, None when never
    at_contact: Contact | None = None  # the furthest point is the path's corner there


@dataclass(frozen=True, slots=True, eq=False)
class PathFit:
    """The local quadratics of a track: for interior sample k, `a[k-1]` and `b[k-1]` (3 axes)."""

    track: BallTrack
    a: Floats
    b: Floats

    def position_at(self, t_s: float) -> Floats:
        """The fitted centre at `t_s`, from the quadratic around the nearest sample."""
        t, xyz = self.track.t_s, self.track.xyz_m
        if len(t) == 2:
            w = (t_s - t[0]) / (t[1] - t[0])
            return np.asarray(xyz[0] + w * (xyz[1] - xyz[0]), dtype=np.float64)
        k = int(np.clip(np.abs(t - t_s).argmin(), 1, len(t) - 2))
        tau = t_s - t[k]
        return np.asarray(xyz[k] + self.b[k - 1] * tau + self.a[k - 1] * tau**2, dtype=np.float64)


def fit_path(track: BallTrack) -> PathFit:
    """The local quadratic per axis around every interior sample (Newton's divided differences)."""
    t, v = track.t_s, track.xyz_m
    h1 = (t[1:-1] - t[:-2])[:, None]
    h2 = (t[2:] - t[1:-1])[:, None]
    slope_before = (v[1:-1] - v[:-2]) / h1
    slope_after = (v[2:] - v[1:-1]) / h2
    a = (slope_after - slope_before) / (h1 + h2)
    return PathFit(track, a, slope_before + a * h1)


def past_lines_m(xyz_m: Floats, pitch: Pitch, ball_radius_m: float) -> Floats:
    """(N, 4): how far the ball's nearest point is past each line's outer edge (order `LINES`)."""
    edges = np.array([outer_edge_m(line, pitch) for line in LINES])
    return np.asarray(_SIGNS * xyz_m[:, _AXES] - edges - ball_radius_m, dtype=np.float64)


def between_samples(fit: PathFit, past: Floats) -> tuple[Floats, Floats, Floats, Floats]:
    """For every interior sample and line: the local quadratic of `past` (a, b) and, where the
    path peaks between its neighbours, the vertex's offset from the sample and its height past
    the line (-inf elsewhere). Each (N - 2, 4)."""
    t = fit.track.t_s
    a = _SIGNS * fit.a[:, _AXES]
    b = _SIGNS * fit.b[:, _AXES]
    inner = past[1:-1]
    h1 = (t[1:-1] - t[:-2])[:, None]
    h2 = (t[2:] - t[1:-1])[:, None]
    # Concave quadratics around a local maximum of the samples have their vertex between the
    # outer two samples: the path's own peak there. (On a plateau rounding leaves a and b a few
    # ulps from zero, and their vertex anywhere: the span is checked, not assumed.)
    peaked = (a < 0) & (-2 * a <= SMOOTH_FLIGHT_MPS2) & (inner >= past[:-2]) & (inner >= past[2:])
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.where(peaked, -b / (2 * a), 0.0)
        peaked &= (tau >= -h1) & (tau <= h2)
        tau = np.where(peaked, tau, 0.0)
        vertex = np.where(peaked, inner - b * b / (4 * a), -np.inf)
    return a, b, tau, vertex


def line_reaches(
    fit: PathFit,
    pitch: Pitch,
    ball_radius_m: float,
    ball_sd_m: float = 0.0,
    contacts: Contacts = NO_CONTACTS,
) -> tuple[LineReach, ...]:
    """For each boundary line: the path's furthest point past it, and when it first got there.

    No quadratic spans a contact (`engine.ball_line_contacts`): the path's corner there is a
    candidate of its own, read off the flights either side. With noisy samples close together
    (`ball_sd_m` > 0, five or more within `SMOOTHING_S` of the furthest point, all of one
    flight), the furthest point is read off a least-squares quadratic through them, where it
    fits them as well as the noise allows: the largest of many noisy samples overstates it.
    Whatever the fit, the path got at least as far as its furthest sample less what the noise
    could have added (`NOISE_ONE_IN`): where the samples show the ball wholly over beyond the
    noise, no fit takes it back.
    """
    t = fit.track.t_s
    past = past_lines_m(fit.track.xyz_m, pitch, ball_radius_m)
    a, b, tau, vertex = between_samples(fit, past)
    vertex[contacts.straddled(t)] = -np.inf
    flight = contacts.cuts(t)
    corners = [c for c in contacts.corners if c is not None]
    h1 = t[1:-1] - t[:-2]
    h2 = t[2:] - t[1:-1]
    beyond_noise = ball_sd_m * NormalDist().inv_cdf(1 - NOISE_ONE_IN / len(t))
    reaches = []
    for i, line in enumerate(LINES):
        sample = int(past[:, i].argmax())
        k = int(vertex[:, i].argmax()) if len(vertex) else 0
        if len(vertex) and vertex[k, i] > past[sample, i]:
            lag = float(tau[k, i])
            basis = _lagrange(float(h1[k]), float(h2[k]), lag)
            peak = (float(vertex[k, i]), float(t[k + 1]) + lag, lag, math.hypot(*basis))
        else:
            peak = (float(past[sample, i]), float(t[sample]), 0.0, 1.0)
        crossed = _first_crossing(t, past[:, i], a[:, i], b[:, i], vertex[:, i], tau[:, i])
        smooth = _smoothed(t, past[:, i], peak[1], ball_sd_m, flight)
        if smooth is not None:
            # Within the window the smoothed path says when; a crossing before it stands.
            peak, window_crossed, window_start = smooth
            if crossed is None or crossed >= window_start:
                crossed = window_crossed
        # A corner stands for the samples its flights were fitted on (with noise, the largest
        # of them overstates the path); elsewhere it is a candidate beside them.
        at_contact = None
        for corner in corners:
            lo, hi = corner.span_s
            reach = _corner_reach(corner, line, pitch, ball_radius_m)
            if lo <= peak[1] <= hi or reach[0] > peak[0]:
                peak = (reach[0], reach[1], float(np.abs(t - reach[1]).min()), reach[2])
                at_contact = corner.contact if reach[1] == corner.contact.t_s else None
                if crossed is None or crossed > reach[1] or lo <= crossed <= hi:
                    crossed = _corner_crossing(corner, line, pitch, ball_radius_m, reach[1])
        floor = float(past[sample, i]) - beyond_noise
        if floor > peak[0]:
            # The path got at least as far as its furthest sample, less what the noise could
            # have added to it: no fit takes back a ball the samples show wholly over.
            peak, at_contact = (floor, float(t[sample]), 0.0, 1.0), None
            crossed = float(t[int(np.argmax(past[:, i] > beyond_noise))])
        reaches.append(
            LineReach(
                line,
                *peak,
                float(past[sample, i]),
                crossed if peak[0] > 0 else None,
                at_contact,
            )
        )
    return tuple(reaches)


# "Beyond the noise": a sample past the line by more than the noise puts the largest of the
# track's samples there once in this many tracks.
NOISE_ONE_IN = 0.001


def _past(flight: Flight, line: Line, pitch: Pitch, ball_radius_m: float) -> Floats:
    """A flight's quadratic in how far the ball is past `line` (c0, c1, c2 in tau)."""
    coef = line.sign * flight.coef[line.axis]
    return np.array(
        [coef[0] - outer_edge_m(line, pitch) - ball_radius_m, coef[1], coef[2]], dtype=np.float64
    )


def _corner_reach(
    corner: Corner, line: Line, pitch: Pitch, ball_radius_m: float
) -> tuple[float, float, float]:
    """The furthest the path gets past `line` over a corner's two flights: the corner itself,
    or the peak of either flight within its samples where it turns before the contact (value,
    time, standard error per metre of noise)."""
    at = corner.contact.t_s
    best = (
        float(past_lines_m(corner.xyz_m[None], pitch, ball_radius_m)[0, LINES.index(line)]),
        at,
        corner.se_factor,
    )
    for flight, (lo, hi) in (
        (corner.before, (corner.before.from_s, 0.0)),
        (corner.after, (0.0, corner.after.to_s)),
    ):
        c0, c1, c2 = _past(flight, line, pitch, ball_radius_m)
        if c2 >= 0:
            continue
        vertex = -c1 / (2 * c2)
        if lo < vertex < hi and abs(vertex) > 1e-9:
            value = float(c0 + c1 * vertex + c2 * vertex * vertex)
            if value > best[0]:
                best = (value, at + float(vertex), flight.se_factor(float(vertex)))
    return best


def _corner_crossing(
    corner: Corner, line: Line, pitch: Pitch, ball_radius_m: float, peak_s: float
) -> float:
    """When the path into a corner's furthest point first got wholly over: the rising root of
    the flight it lies on, or the start of that flight's samples where it was over all of it."""
    at = corner.contact.t_s
    flight = corner.before if peak_s <= at else corner.after
    c0, c1, c2 = _past(flight, line, pitch, ball_radius_m)
    lo, hi = flight.from_s, peak_s - at
    if c0 + c1 * lo + c2 * lo * lo > 0:
        return at + lo
    real = roots_within(float(c0), float(c1), float(c2), lo, hi, flat=1e-15)
    return at + (min(real) if real else hi)


# Half the window of the least-squares fit: 2 cm of travel at 1 m/s, 40 cm at 20 m/s; over it
# gravity, drag and spin keep a ball's path quadratic to a micrometre.
SMOOTHING_S = 0.02


def _smoothed(
    t: Floats, past: Floats, centre_s: float, sd_m: float, flight: npt.NDArray[np.intp]
) -> tuple[tuple[float, float, float, float], float | None, float] | None:
    """The furthest point (value, time, lag from the nearest sample, standard error per metre of
    noise), the first moment past the line in the window and the window's start, from a
    least-squares quadratic through the samples within about `SMOOTHING_S` of `centre_s` and
    of its flight (`flight`: each sample's, between contacts); None where there are fewer than
    five, no noise, the quadratic fits worse than the noise allows (a corner nobody found), or
    its furthest point lies past the samples' own by more than its standard error."""
    # The window by sample count, not by time: the same samples whatever the clock's origin
    # (the micro-step keeps a whole number of intervals whole when the clock's rounding nicks it).
    reach = int(np.floor(SMOOTHING_S / float(np.median(np.diff(t))) + 1e-6))
    middle = int(np.abs(t - centre_s).argmin())
    same = np.flatnonzero(flight == flight[middle])
    inside = slice(max(middle - reach, int(same[0])), min(middle + reach, int(same[-1])) + 1)
    n = len(t[inside])
    if sd_m <= 0 or n < 5:
        return None
    tau = t[inside] - centre_s
    # In units of the window's half-width, so that the normal equations are well conditioned.
    scale = float(np.abs(tau).max())
    design = np.column_stack([np.ones(n), tau / scale, (tau / scale) ** 2])
    coef, residual, _, _ = np.linalg.lstsq(design, past[inside], rcond=None)
    dof = n - 3
    chi2 = float(residual[0]) / sd_m**2 if len(residual) else 0.0
    if chi2 / dof > 1 + 3 * math.sqrt(2 / dof):  # worse than noise, three standard deviations
        return None
    c0, c1, c2 = float(coef[0]), float(coef[1]) / scale, float(coef[2]) / scale**2
    lo, hi = float(tau[0]), float(tau[-1])
    candidates = [lo, 0.0, hi]
    if c2 < 0 and lo < -c1 / (2 * c2) < hi:
        candidates.append(-c1 / (2 * c2))
    values = [c0 + c1 * x + c2 * x * x for x in candidates]
    value = max(values)
    # On a plateau every point is as far: the one the samples put furthest, whatever rounding
    # says of the others.
    best = min((x for x, v in zip(candidates, values, strict=True) if v >= value - 1e-12), key=abs)
    e = np.array([1.0, best / scale, (best / scale) ** 2])
    factor = math.sqrt(float(e @ np.linalg.solve(design.T @ design, e)))
    if value > float(past[inside].max()) + factor * sd_m:
        return None
    when = centre_s + best
    lag = float(np.min(np.abs(t - when)))
    crossed = None
    if value > 0:
        start = c0 + c1 * lo + c2 * lo * lo
        if start > 0:
            crossed = centre_s + lo
        else:  # the root between the window's start and the furthest point
            real = roots_within(c0, c1, c2, lo, best)
            crossed = centre_s + (min(real) if real else best)
    return (value, when, lag, factor), crossed, centre_s + lo


def _lagrange(h1: float, h2: float, tau: float) -> tuple[float, float, float]:
    """The weights of samples k-1, k, k+1 in the quadratic's value at tau: by the envelope
    theorem, how the vertex's height moves with each sample's noise."""
    return (
        tau * (tau - h2) / (h1 * (h1 + h2)),
        (tau + h1) * (h2 - tau) / (h1 * h2),
        (tau + h1) * tau / (h2 * (h1 + h2)),
    )


def _first_crossing(
    t: Floats, past: Floats, a: Floats, b: Floats, vertex: Floats, tau: Floats
) -> float | None:
    """The first moment the path is past the line: in the first interval whose end sample is past,
    or earlier at a vertex past the line between samples that are not."""
    times = []
    over = np.flatnonzero(past > 0)
    if over.size:
        j = int(over[0])
        if j == 0:
            return float(t[0])
        times.append(_rising_root(t, past, a, b, j))
    # A peak between samples: the quadratic around sample k + 1 rises through zero before it.
    hidden = np.flatnonzero((vertex > 0) & (past[:-2] <= 0) & (past[1:-1] <= 0))
    if hidden.size:
        k = int(hidden[0])
        times.append(float(t[k + 1] + tau[k] - math.sqrt(vertex[k] / -a[k])))
    return min(times) if times else None


def _rising_root(t: Floats, past: Floats, a: Floats, b: Floats, j: int) -> float:
    """Where the path crosses zero between samples j-1 (not past) and j (past)."""
    lo, hi = float(t[j - 1]), float(t[j])
    linear = lo + (hi - lo) * float(-past[j - 1] / (past[j] - past[j - 1]))
    if len(t) < 3:
        return linear
    k = min(j, len(t) - 2)  # the quadratic centred on sample j, or on j-1 at the track's end
    qa, qb, qc = float(a[k - 1]), float(b[k - 1]), float(past[k])
    disc = qb * qb - 4 * qa * qc
    if abs(qa) < 1e-12 or disc < 0:
        return linear
    # Both roots, in the cancellation-free form; the one inside the interval is the crossing.
    q = -0.5 * (qb + math.copysign(math.sqrt(disc), qb))
    roots = [r + float(t[k]) for r in ((q / qa, qc / q) if q != 0 else (0.0,))]
    inside = [r for r in roots if lo - 1e-9 <= r <= hi + 1e-9]
    return min(inside) if inside else linear
