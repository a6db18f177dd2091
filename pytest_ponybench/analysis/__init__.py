"""Records in, figures out: the summary, the statistics, the verdicts, the estimate."""
