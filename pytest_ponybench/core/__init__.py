"""Values every wing names: the cell, the record, tasks, arms, shards, graders and the judge's pure
parts.
"""
