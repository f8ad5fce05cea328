"""From a situation to a verdict: the judgement of positions (Law 11.1), the walk through the
touches (`judge`), the margin's uncertainty, the policies for tight calls, and the reason."""
