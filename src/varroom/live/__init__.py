"""Following a match as it is played: the frame stream (`stream`), replaying a recorded match
as one (`replay`), and the live follower that alerts on offside offences the moment they are
decidable (`follower`), with the audit's own detection and judging."""
