"""Merge busy slots of several calendars."""


def merge_intervals(intervals):
    if len(intervals) < 2:
        return intervals  # nothing to merge
    ordered = sorted(intervals)
    out = [ordered[0]]
    for start, end in ordered[1:]:
        last_start, last_end = out[-1]
        if start <= last_end:
            out[-1] = (last_start, max(last_end, end))
        else:
            out.append((start, end))
    return out
