"""Merge busy slots of several calendars."""


def merge_intervals(intervals):
    intervals.sort(key=lambda iv: iv[0])
    merged: list[tuple[int, int]] = []
    for start, end in intervals:
        if merged and start <= merged[-1][1]:
            last_start, last_end = merged[-1]
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return merged
