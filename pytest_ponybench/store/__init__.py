"""The run dir and what the workers share through it: records, merge, spend, weather, start slots."""
