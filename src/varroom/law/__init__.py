"""Law 11 as pure functions, one paragraph each; no I/O.

Depths are metres along the attack towards the goal line attacked: `direction.sign * x`.
"""
