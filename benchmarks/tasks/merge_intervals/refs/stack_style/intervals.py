def merge_intervals(intervals):
    out = []
    for start, end in sorted(intervals, key=lambda iv: iv[0]):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e) for s, e in out]
