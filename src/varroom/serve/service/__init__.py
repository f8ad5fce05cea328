"""The review room's work, apart from HTTP: one small service per concern.

`store` (the database and its one writer), `display` (what the queue and log show of a
verdict), `judging` (the engine, as `varroom check` runs it), `queue` (situations in, the
queue out), `review` (facts set, judged again), `decisions` (the append-only log), `export`
(the log as CSV), `images` (pictures, drawn on demand), `audits` (match audits in a
background thread), and `room`, which puts them together.
"""
