"""The workspace a session left and what is measured from it: laying seeds, metrics, the checks,
the score.
"""
