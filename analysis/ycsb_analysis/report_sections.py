"""The report's "Capacity under a latency objective", "Faults across repeats" and "What ran"
sections: HTML of the tables capacity.py, faults.py and comparability.py return (the domain
modules build no HTML)."""

from __future__ import annotations

import html

import polars as pl

from .capacity import across_trials
from .comparability import MARK, inherent_apart, what_ran
from .intervals_html import html_table


def capacity_section(steps: pl.DataFrame, found: pl.DataFrame, verdicts: pl.DataFrame) -> str:
    """The Capacity section: the tables of capacity.capacities, capacity_verdicts, steps_table."""
    if steps.is_empty():
        return ""
    per_step = steps.with_columns(
        pl.when(pl.col("fell_behind")).then(pl.lit("yes: believe intended")).otherwise(pl.lit(""))
        .alias("fell_behind"))
    cols = ["database", "search", "repeat", "step", "target", "window_s", "achieved_ops_per_s",
            "operation", "intended_p99_us", "service_p99_us", "held", "fell_behind", "why"]
    verdict_rows = (verdicts.select("phase", "figure", "ratio", "ratio_low", "ratio_high",
                                    "verdict") if verdicts.height else verdicts)
    return (
        "<h2>Capacity under a latency objective</h2>"
        '<p class="note">Each step ran at a YCSB -target with measurement.interval=both; a step '
        "holds when the objective's percentile of intended latency is within the bound and the "
        f"client achieved at least {steps['keep_up'][0]:.0%} of the target. A trial's "
        "capacity is the highest target at which every step held (the rate found is run again "
        "to confirm it); trials give the interval (capacity.csv, "
        "capacity-steps.csv). Where nothing held, the lowest intended figure of the paced steps "
        "is the latency floor: an objective below it holds at no rate tried.</p>"
        + html_table(across_trials(found)) + html_table(found.drop("capacity_ops_per_s"))
        + html_table(verdict_rows) + html_table(per_step.select(cols))
    )


def lost_section(lines: list[str]) -> str:
    """What heads the report when a fault lost acknowledged writes (faults.lost_lines)."""
    return "".join(f"<p class=\"lost\"><strong>{html.escape(line)}</strong></p>"
                   for line in lines)


def faults_section(table: pl.DataFrame, lines: list[str]) -> str:
    """The "Faults across repeats" section: a sentence per fault, episode and database; a table."""
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    return ("<h2>Faults across repeats</h2><p class=\"note\">S2's fault phases (fault-verdict-"
            "*.json): each measure's mean and 95% t-interval across the repeats (--repeat N), "
            "each a fresh cluster; a repeat in which the measure was not reached before the "
            "phase ended is counted, not averaged (faults.csv). Definitions: "
            "docs/faults/index.md.</p>" + f"<ul>{items}</ul>" + html_table(table))


def what_ran_section(runs, differences: pl.DataFrame) -> str:
    """The "What ran" section: per phase the facts that can move a figure
    (comparability.what_ran), the differences inherent to what is compared (once), and every
    other difference found (comparability.csv), with its mark."""
    facts = what_ran(runs)
    if facts.is_empty():
        return ""
    given, other = inherent_apart(differences)
    out = ("<h2>What ran</h2><p class=\"note\">Read from the source for each phase: the client "
           "(the pack's commit, JDK, flags, every library: metadata.json \"provenance\"), the "
           "workload, and the servers as they describe themselves (metadata.json \"servers\": "
           "versions, settings, schema). A verdict whose sides differ in something you control "
           f"that can move a figure ends \"{MARK} [n]\"; mark n is below (and in "
           "comparability.csv). Durability is what each side does with an acknowledged write "
           "(metadata.json \"durability\", read from the servers' settings): two databases "
           "differ in it by their own defaults (Cassandra's periodic commit log; a standalone "
           "HBase's WAL on the local filesystem, which cannot hflush, where HDFS can), which "
           "is listed here, not marked; a durability you set on either side is marked.</p>"
           + html_table(facts))
    if given.height:
        out += ("<p class=\"note\">Inherent to what is compared (each binding, the client "
                "libraries both load at their own versions, the databases' versions and default "
                "durability): never a mark.</p>" + html_table(given))
    if other.height:
        out += html_table(other)
    return out
