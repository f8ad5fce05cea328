"""Where the ball's path has a corner: a bounce, the post, the bar, a player (issue 22).

Between contacts a ball flies smoothly (gravity, drag and spin bend it by at most about
40 m/s^2); at a contact its velocity jumps while its position does not. A fit across a contact
rounds the corner off: a ball that drops 5 mm over the goal line and spins back out peaks, on
a smooth quadratic through the bounce, millimetres short of the line. So the path is fitted
flight by flight, and where a contact is the path's furthest point, the corner itself is
read off the two flights it joins, each fitted on its own side and extended to the contact.

Contacts come from the file (`contacts`, exact times) and from the track:

- a bounce: the ball's lowest point within `BOUNCE_REACH_M` of the ground (beyond its
  noise), falling before it and rising after it, each beyond `CONTACT_SIGMAS` standard errors
  of the slope the samples give;
- any other contact: the velocity before and after a sample (least-squares lines over the
  `side_samples` on each side) differs by more than smooth flight could change it between the
  two windows' centres (`SMOOTH_FLIGHT_MPS2`) plus `CONTACT_SIGMAS` standard errors.

Where the flights on the two sides of a found contact do not meet (more than `JOIN_M`, or
their noise, apart), it is a jump in the tracking, not a contact: no corner is read there,
and no fit crosses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from varroom.model.ball_line import BallTrack, Contact, ContactKind

Floats = npt.NDArray[np.float64]

# Gravity, drag and spin give a ball in flight at most about 40 m/s^2; more is a contact, a
# jump in the tracking, or noise.
SMOOTH_FLIGHT_MPS2 = 60.0
# Each side of a contact is fitted over about this long (and at least `FEWEST_SIDE_SAMPLES`):
# long enough that a bounce at 2.5 m/s stands out of 15 mm of noise at 100 Hz, short enough
# that gravity, drag and spin keep a flight quadratic to a fraction of a millimetre.
SIDE_S = 0.05
FEWEST_SIDE_SAMPLES = 3
# How many standard errors a change must clear to be a contact, not the samples' noise.
CONTACT_SIGMAS = 4.0
GRAVITY_MPS2 = 9.81
MEETING_SLACK_S = 1e-6
# A bounce: the ball's centre within this of its radius above the ground, beyond its noise.
BOUNCE_REACH_M = 0.03
# The two flights of a contact meet there: their ends within this (or their noise) of each
# other. Farther apart, the track jumped.
JOIN_M = 0.05


@dataclass(frozen=True, slots=True, eq=False)
class Flight:
    """One side of a contact: the least-squares quadratic per axis through its samples, in
    tau = t - t_contact (a line on two samples), and what the noise does to it."""

    coef: Floats  # (3, 3): c0 + c1 tau + c2 tau^2 per axis
    from_s: float  # the span of its samples, in tau
    to_s: float
    scale_s: float  # the fit's unit of tau
    normal_inverse: Floats  # (d + 1, d + 1) of the scaled design, d the degree

    def se_factor(self, tau_s: float) -> float:
        """The standard error of its value at `tau_s`, per metre of sample noise."""
        d = len(self.normal_inverse)
        e = (tau_s / self.scale_s) ** np.arange(d)
        return float(math.sqrt(e @ self.normal_inverse @ e))

    def bends_mps2(self) -> Floats:
        """(3,): how far its acceleration is from gravity's on each axis."""
        return np.abs(2 * self.coef[:, 2] - (0.0, 0.0, -GRAVITY_MPS2))

    def bend_mps2(self) -> float:
        """How far its accelerations are from gravity's, summed over the axes."""
        return float(self.bends_mps2().sum())

    def flies(self, sd_m: float) -> bool:
        """Whether a ball in flight could follow it: no axis bent beyond what gravity, drag
        and spin do, give or take the noise (a quadratic through a jump bends by thousands)."""
        if len(self.normal_inverse) < 3:
            return True
        noise = CONTACT_SIGMAS * sd_m * 2 * math.sqrt(self.normal_inverse[2, 2]) / self.scale_s**2
        return bool((self.bends_mps2() <= SMOOTH_FLIGHT_MPS2 + noise).all())


@dataclass(frozen=True, slots=True, eq=False)
class Corner:
    """The path at a contact, from the flights on either side: the centre there (each end
    weighed by how well its side pins it down) and its standard error per metre of noise."""

    contact: Contact
    xyz_m: Floats  # (3,)
    se_factor: float
    before: Flight
    after: Flight

    @property
    def span_s(self) -> tuple[float, float]:
        """The times the two flights' samples cover."""
        return self.contact.t_s + self.before.from_s, self.contact.t_s + self.after.to_s


@dataclass(frozen=True, slots=True)
class Contacts:
    """The contacts of a track: each one the path turns at, with its corner where the two
    flights meet (None: the track jumped there)."""

    found: tuple[Contact, ...]
    corners: tuple[Corner | None, ...]

    def cuts(self, t_s: Floats) -> npt.NDArray[np.intp]:
        """For each sample, which flight (0, 1, ...) it belongs to; a sample at a contact goes
        with the flight after it."""
        times = np.array([c.t_s for c in self.found])
        return np.searchsorted(times, t_s, side="right").astype(np.intp)

    def straddled(self, t_s: Floats) -> npt.NDArray[np.bool_]:
        """(N - 2,): whether the triple around each interior sample spans a contact (a sample
        exactly at one is its corner: the triple spans it too)."""
        out = np.zeros(max(len(t_s) - 2, 0), dtype=bool)
        for contact in self.found:
            out |= (t_s[:-2] < contact.t_s) & (t_s[2:] > contact.t_s)
        return out


def side_samples(t_s: Floats) -> int:
    """How many samples each side of a contact is fitted over."""
    h = float(np.median(np.diff(t_s)))
    return max(FEWEST_SIDE_SAMPLES, int(math.floor(SIDE_S / h + 1e-6)))


def find_contacts(
    track: BallTrack, ball_radius_m: float, sd_m: float, given: tuple[Contact, ...] = ()
) -> Contacts:
    """The contacts the file gives and those the track shows, in time order, with corners."""
    t, xyz = track.t_s, track.xyz_m
    w = side_samples(t) if len(t) >= 3 else 0
    found = list(given)
    if len(t) >= 2 * w + 1 and w >= FEWEST_SIDE_SAMPLES:
        found += _found(t, xyz, w, ball_radius_m, sd_m, given)
    found.sort(key=lambda c: c.t_s)
    corners = []
    for i, contact in enumerate(found):
        lo = found[i - 1].t_s if i else -math.inf
        hi = found[i + 1].t_s if i + 1 < len(found) else math.inf
        corners.append(_corner(t, xyz, contact, w, sd_m, lo, hi))
    # A found contact whose flights do not meet is a jump: kept as a cut, without a corner;
    # one whose flights meet is where they meet.
    return Contacts(
        tuple(k if c is None else c.contact for k, c in zip(found, corners, strict=True)),
        tuple(corners),
    )


def _found(
    t: Floats, xyz: Floats, w: int, radius_m: float, sd_m: float, given: tuple[Contact, ...]
) -> list[Contact]:
    """Contacts the track shows, one per run of samples that show it, at the sample where the
    change is largest (refined between samples by `_corner`)."""
    # Window j covers samples j .. j + w: sample k ends window k - w and starts window k.
    slope, se, mid = _slopes(t, xyz, w, sd_m)
    k = np.arange(w, len(t) - w)
    v_before, v_after = slope[k - w], slope[k]
    noise = CONTACT_SIGMAS * np.hypot(se[k - w], se[k])
    change = np.abs(v_after - v_before)
    jumped = (change > (SMOOTH_FLIGHT_MPS2 * (mid[k] - mid[k - w]) + noise)[:, None]).any(axis=1)
    bounced = (
        (xyz[k, 2] - radius_m <= BOUNCE_REACH_M + CONTACT_SIGMAS * sd_m)
        & (v_before[:, 2] < 0)
        & (v_after[:, 2] > 0)
        & (v_after[:, 2] - v_before[:, 2] > noise)
    )
    shown = jumped | bounced
    if not shown.any():
        return []
    contacts: list[Contact] = []
    given_t = np.array([c.t_s for c in given])
    flagged = np.flatnonzero(shown)
    for run in np.split(flagged, np.flatnonzero(np.diff(flagged) > 1) + 1):
        if not run.size:
            continue
        best = int(run[np.argmax(np.linalg.norm(change[run], axis=1))])
        at = int(k[best])
        # A contact the file gives already stands for one the track shows beside it.
        if given_t.size and np.abs(given_t - t[at]).min() <= w * (t[at] - t[at - 1]):
            continue
        kind = ContactKind.BOUNCE if bounced[best] else ContactKind.UNNAMED
        contacts.append(Contact(float(t[at]), kind, given=False))
    return contacts


def _slopes(t: Floats, xyz: Floats, w: int, sd_m: float) -> tuple[Floats, Floats, Floats]:
    """For every window of w + 1 consecutive samples: the least-squares velocity per axis
    (n - w, 3), its standard error (the same on every axis) and the window's mean time. Running sums
    over the track (times and places taken from its first sample, so that their squares stay
    small) give every window at once."""
    n = w + 1
    tau = t - t[0]
    u = xyz - xyz[0]

    def windows(values: Floats) -> Floats:
        total = np.concatenate([np.zeros((1, *values.shape[1:])), np.cumsum(values, axis=0)])
        out: Floats = total[n:] - total[:-n]
        return out

    s_t = windows(tau)
    s_tt = windows(tau * tau)
    s_u = windows(u)
    s_tu = windows(tau[:, None] * u)
    sxx = s_tt - s_t * s_t / n
    slope = (s_tu - s_t[:, None] * s_u / n) / sxx[:, None]
    return slope, sd_m / np.sqrt(sxx), t[0] + s_t / n


def _corner(
    t: Floats, xyz: Floats, contact: Contact, w: int, sd_m: float, lo_s: float, hi_s: float
) -> Corner | None:
    """The two flights at a contact, each a least-squares quadratic (a line on two samples)
    over up to w samples of its side between the neighbouring contacts, and where they meet.
    A given contact's time is exact. A found one lies between two of the samples beside the
    one it was found at: each such gap is tried, and the contact is where the two flights
    fitted either side of it cross within it (along the axis that turned most) and meet
    best."""
    if w < 2:
        return None
    if contact.given:
        left = np.flatnonzero((t <= contact.t_s) & (t > lo_s))[-w:]
        right = np.flatnonzero((t >= contact.t_s) & (t < hi_s))[:w]
        return _joined(t, xyz, contact, left, right, sd_m)
    k = int(np.searchsorted(t, contact.t_s))
    best: tuple[float, Corner] | None = None
    for j in range(max(k - 2, 0), min(k + 2, len(t) - 1)):
        left = np.flatnonzero((t <= t[j]) & (t > lo_s))[-w:]
        right = np.flatnonzero((t >= t[j + 1]) & (t < hi_s))[:w]
        if len(left) < 2 or len(right) < 2:
            continue
        before = _flight(t[left] - t[j], xyz[left]).coef
        after = _flight(t[right] - t[j], xyz[right]).coef
        at = _meeting(before, after, 0.0, float(t[j + 1] - t[j]))
        if at is None:
            continue
        corner = _joined(
            t, xyz, Contact(float(t[j]) + at, contact.kind, given=False), left, right, sd_m
        )
        # Where several gaps join, the flights bent least are the right ones: a side that
        # holds a sample of the other flight bends through the corner.
        # (Equal bends, up to a clock's rounding, keep the earlier gap.)
        if corner is None:
            continue
        bend = corner.before.bend_mps2() + corner.after.bend_mps2()
        if best is None or bend < best[0] * (1 - 1e-9) - 1e-9:
            best = (bend, corner)
    return None if best is None else best[1]


def _joined(
    t: Floats,
    xyz: Floats,
    contact: Contact,
    left: npt.NDArray[np.intp],
    right: npt.NDArray[np.intp],
    sd_m: float,
) -> Corner | None:
    """The corner where the flights fitted on `left` and `right` meet at the contact; None
    where they do not meet there (a jump in the tracking)."""
    if len(left) < 2 or len(right) < 2:
        return None
    at = contact.t_s
    before, after = _flight(t[left] - at, xyz[left]), _flight(t[right] - at, xyz[right])
    if not (before.flies(sd_m) and after.flies(sd_m)):
        return None
    f_before, f_after = before.se_factor(0.0), after.se_factor(0.0)
    gap = np.abs(before.coef[:, 0] - after.coef[:, 0])
    if (gap > np.maximum(JOIN_M, CONTACT_SIGMAS * sd_m * math.hypot(f_before, f_after))).any():
        return None
    weights = np.array([1 / f_before**2, 1 / f_after**2])
    return Corner(
        contact=contact,
        xyz_m=(weights[0] * before.coef[:, 0] + weights[1] * after.coef[:, 0]) / weights.sum(),
        se_factor=float(1 / math.sqrt(weights.sum())),
        before=before,
        after=after,
    )


def _flight(tau: Floats, values: Floats) -> Flight:
    """The least-squares quadratic per axis through samples at `tau` (a line on two)."""
    degree = 2 if len(tau) >= 3 else 1
    scale = float(np.abs(tau).max()) or 1.0
    design = np.vander(tau / scale, degree + 1, increasing=True)
    coef, *_ = np.linalg.lstsq(design, values, rcond=None)
    out = np.zeros((3, 3))
    out[:, : degree + 1] = (coef / scale ** np.arange(degree + 1)[:, None]).T
    normal_inverse = np.asarray(np.linalg.inv(design.T @ design), dtype=np.float64)
    return Flight(out, float(tau.min()), float(tau.max()), scale, normal_inverse)


def _meeting(before: Floats, after: Floats, lo: float, hi: float) -> float | None:
    """Where the two flights cross, in tau, along the axis whose velocity turned most: the
    root of their difference within [lo, hi] (None where they do not cross there)."""
    axis = int(np.argmax(np.abs(after[:, 1] - before[:, 1])))
    c0, c1, c2 = after[axis] - before[axis]
    # Flights that meet at a sample cross at the gap's very end, where a clock's rounding
    # (1e-12 s at an hour) may put the root a hair outside: a microsecond is still the gap.
    real = roots_within(c0, c1, c2, lo, hi, flat=1e-12, slack=MEETING_SLACK_S)
    return min(real) if real else None


def roots_within(
    c0: float, c1: float, c2: float, lo: float, hi: float, *, flat: float = 0.0, slack: float = 0.0
) -> list[float]:
    """The real roots of c0 + c1 tau + c2 tau^2 within [lo - slack, hi + slack], put inside
    [lo, hi]; taken as a line where |c2| <= `flat`, and rootless where that is flat too."""
    roots = np.roots([c2, c1, c0]) if abs(c2) > flat else np.array([-c0 / c1] if c1 else [])
    return [
        min(max(float(r.real), lo), hi)
        for r in roots
        if abs(r.imag) < 1e-12 and lo - slack <= r.real <= hi + slack
    ]
