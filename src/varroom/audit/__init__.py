"""A whole match against Law 11: every offside incident the engine finds, and the officials' calls."""
