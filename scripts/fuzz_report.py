#!/usr/bin/env python3
"""Draws a campaign's report (scripts/fuzz.sh): coverage and executions/s over
time, and the op x outcome matrix of what the campaign exercised, as PNGs
with matplotlib.

    fuzz_report.py REPORT_DIR     (reads timeline.csv and exercise.csv there)
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def timeline_plots(report, rows):
    # Before libFuzzer's first report (the seeds still loading) there are no
    # coverage or speed figures: those points are left out, not drawn as 0.
    ran = [r for r in rows if int(r["programs"]) > 0]
    t = [int(r["elapsed_s"]) for r in ran]
    fig, (cov, speed) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    cov.plot(t, [int(r["coverage"]) for r in ran], color="tab:blue", marker=".", label="coverage (edges)")
    cov.plot(t, [int(r["features"]) for r in ran], color="tab:cyan", marker=".", label="features")
    cov.set_ylabel("libFuzzer coverage")
    cov.set_ylim(bottom=0)
    cov.grid(alpha=0.3)
    ax2 = cov.twinx()
    distinct = [int(r["distinct"]) for r in rows]
    ax2.step([int(r["elapsed_s"]) for r in rows], distinct, where="post", color="tab:red",
             label="distinct findings")
    ax2.set_ylabel("distinct findings", color="tab:red")
    ax2.set_ylim(0, max(1, max(distinct)) * 1.15)
    ax2.yaxis.set_major_locator(MaxNLocator(integer=True))
    lines = cov.get_lines() + ax2.get_lines()
    cov.legend(lines, [line.get_label() for line in lines], loc="lower right")
    speed.plot(t, [int(r["execs_per_s"]) for r in ran], color="tab:green", marker=".")
    speed.set_ylabel("programs / s (all jobs)")
    speed.set_ylim(bottom=0)
    speed.set_xlabel("seconds since the campaign started")
    speed.set_xlim(left=0)
    speed.grid(alpha=0.3)
    fig.suptitle("stridecheck campaign: coverage, findings and speed over time")
    fig.tight_layout()
    fig.savefig(os.path.join(report, "coverage.png"), dpi=110)
    plt.close(fig)


def matrix_plot(report, rows):
    ops = sorted({r["op"] for r in rows})
    first = ["ok", "undefined"]
    last = ["skipped", "over_budget", "refused", "timed_out"]
    kinds = sorted({r["outcome"] for r in rows} - set(first) - set(last))
    outcomes = [o for o in first if any(r["outcome"] == o for r in rows)] + kinds + \
               [o for o in last if any(r["outcome"] == o for r in rows)]
    counts = {(r["op"], r["outcome"]): int(r["count"]) for r in rows}
    grid = [[counts.get((op, o), 0) for o in outcomes] for op in ops]
    fig, ax = plt.subplots(figsize=(2.2 + 1.2 * len(outcomes), 1.5 + 0.32 * len(ops)))
    shade = [[math.log10(v) if v else -1 for v in row] for row in grid]
    ax.imshow(shade, aspect="auto", cmap="Blues", vmin=-1, vmax=max(1.0, max(max(r) for r in shade)))
    ax.set_xticks(range(len(outcomes)), outcomes, rotation=30, ha="right")
    ax.set_yticks(range(len(ops)), ops)
    top = max(max(r) for r in shade)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v:
                ax.text(j, i, f"{v:,}", ha="center", va="center", fontsize=7,
                        color="white" if shade[i][j] > 0.6 * top else "black")
    ax.set_title("what the campaign exercised: steps per op and LibTorch outcome\n"
                 "(over the final corpus; 'undefined': result documented as undefined)")
    fig.tight_layout()
    fig.savefig(os.path.join(report, "op_outcome_matrix.png"), dpi=110)
    plt.close(fig)


def main():
    report = sys.argv[1]
    timeline = read_csv(os.path.join(report, "timeline.csv"))
    if timeline:
        timeline_plots(report, timeline)
    exercise_path = os.path.join(report, "exercise.csv")
    if os.path.exists(exercise_path):
        rows = read_csv(exercise_path)
        if rows:
            matrix_plot(report, rows)


if __name__ == "__main__":
    main()
