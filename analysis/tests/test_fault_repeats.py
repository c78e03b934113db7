"""S2's faults across repeats (faults.py, readers/fault_verdicts.py): each measure's mean and
95% interval over the repeats, what a repeat did not reach counted, lost writes summed, a
skipped fault said, an unreadable verdict named. From the real verdicts of fixtures/
fault-s2-intended (run-scenario S2 --db cassandra --scale ci --faults crash,pause); the repeats
of the pure-logic tests are copies of its pause verdict with other figures."""

import copy
import math
import shutil
from pathlib import Path

from scipy.stats import t as student_t
from ycsb_analysis import faults
from ycsb_analysis.cli import build_report_outcome
from ycsb_analysis.loader import load
from ycsb_analysis.readers.fault_verdicts import FaultVerdict, verdicts_in

INTENDED = Path(__file__).parent / "fixtures" / "fault-s2-intended"
RUN = INTENDED / "20261207T010111Z"


def real_verdicts():
    found, unreadable = verdicts_in(Path(r.path).parent for r in load([str(INTENDED)]))
    assert unreadable == []
    return found


def test_one_run_gives_each_episode_once_and_no_interval():
    verdicts = real_verdicts()
    assert sorted((v.database, v.fault, v.repeat) for v in verdicts) == [
        ("cassandra", "crash", 0), ("cassandra", "pause", 0)]
    table = faults.across_repeats(verdicts)
    episodes = table.unique(["fault", "episode"], maintain_order=True).rows()
    assert [(r[1], r[2]) for r in episodes] == [("crash", "node3 down"), ("pause", "3 s pause"),
                                               ("pause", "25 s pause")]
    assert set(table["repeats"]) == {1} and table["low"].is_nan().all()
    outage = table.filter((table["episode"] == "25 s pause") & (table["measure"] == "outage_s"))
    assert outage["mean"].item() == 11.0
    # the crash's verdict predates its own count: lost = acknowledged - found, never below 0
    assert set(table.filter(table["fault"] == "crash")["acknowledged_writes_lost"]) == {0}
    text = faults.lines(table, verdicts)
    assert text[0].startswith("crash, node3 down: cassandra (1 repeat(s)): outage 5.0 s, ")
    assert "back in the pre-fault band in - (not within the phase)" in text[0]


def repeats_of_the_pause(outages, bands, lost=(0, 0, 0)):
    (pause,) = [v for v in real_verdicts() if v.fault == "pause"]
    out = []
    for n, (outage, band, gone) in enumerate(zip(outages, bands, lost), start=1):
        data = copy.deepcopy(pause.data)
        long_ = data["measures"]["faults"][1]
        long_["outage_s"], long_["recovery_to_band_s"] = outage, band
        data["acknowledged_writes_lost"], data["repeat"] = gone, n
        out.append(FaultVerdict(pause.path, "cassandra", "pause", n, data))
    return out


def test_three_repeats_give_the_t_interval_and_count_what_was_not_reached():
    table = faults.across_repeats(repeats_of_the_pause([7.0, 9.0, 8.0], [30.0, None, 36.0]))
    long_ = table.filter(table["episode"] == "25 s pause")
    outage = long_.filter(long_["measure"] == "outage_s").to_dicts()[0]
    half = student_t.ppf(0.975, 2) * 1.0 / math.sqrt(3)  # sd of 7, 9, 8 is 1
    assert outage["repeats"] == 3 and outage["not_reached"] == 0
    assert math.isclose(outage["mean"], 8.0)
    assert math.isclose(outage["low"], 8.0 - half) and math.isclose(outage["high"], 8.0 + half)
    band = long_.filter(long_["measure"] == "recovery_to_band_s").to_dicts()[0]
    assert (band["not_reached"], band["mean"]) == (1, 33.0)
    line = next(x for x in faults.lines(table, []) if x.startswith("pause, 25 s pause"))
    assert "outage 8.0 s (95% CI 5.5 to 10.5)" in line
    assert "back in the pre-fault band in 33.0 s (95% CI" in line
    assert "[not within the phase in 1 of 3]" in line


def test_lost_writes_are_summed_and_a_skipped_fault_is_said():
    verdicts = repeats_of_the_pause([7.0, 9.0, 8.0], [30.0, 31.0, 36.0], lost=(0, 2, 0))
    skipped = FaultVerdict(Path("x"), "hbase", "pause", 1,
                           {"database": "hbase", "fault": "pause", "skipped": "no freezer"})
    table = faults.across_repeats(verdicts + [skipped])
    assert set(table["acknowledged_writes_lost"]) == {2}
    assert set(table["database"]) == {"cassandra"}
    text = faults.lines(table, verdicts + [skipped])
    assert text[-1] == "pause: hbase: skipped in 1 repeat(s): no freezer"
    assert all(x.endswith("acknowledged writes lost: 2") for x in text[:-1])


def test_an_unreadable_verdict_is_named_and_the_rest_reported(tmp_path):
    copy_dir = tmp_path / "run"
    shutil.copytree(RUN, copy_dir)
    (copy_dir / "fault-verdict-cassandra-drain.json").write_text("{not json")
    outcome = build_report_outcome([str(copy_dir)], tmp_path / "report")
    assert [Path(s.path).name for s in outcome.skipped] == ["fault-verdict-cassandra-drain.json"]
    assert "not a readable fault verdict" in outcome.skipped[0].reason
    rows = (tmp_path / "report" / "faults.csv").read_text().splitlines()
    assert rows[0].startswith("database,fault,episode,measure,unit,repeats,not_reached,mean")
    assert len(rows) == 1 + 3 * len(faults.MEASURES)
    said = (tmp_path / "report" / "faults.txt").read_text().splitlines()
    assert said == (faults.lines(faults.across_repeats(real_verdicts()), real_verdicts())
                    + faults.durability_lines(load([str(INTENDED)])))
    # the fault phases' durability, from their metadata.json, beside the figures
    assert said[-2].startswith("durability: cassandra: an acknowledged write survives ")
    html = (tmp_path / "report" / "report.html").read_text()
    assert "Faults across repeats" in html and "pause, 25 s pause: cassandra" in html


def test_a_window_with_no_failed_second_has_nothing_to_recover_and_is_not_unreached():
    """A partition's cut from the clients on Cassandra: slower seconds, none failed or empty
    (first_bad_s null): its recovery is not "not within the phase" but said as nothing to
    recover from, and kept out of the mean; a repeat that did fail still gives its figure."""
    verdicts = repeats_of_the_pause([9.0, 11.0, 10.0], [20.0, 22.0, 21.0])
    for v in verdicts[:2]:
        short = v.data["measures"]["faults"][0]
        short["first_bad_s"], short["recovery_to_success_s"] = None, None
        short["recovery_to_band_s"] = None
    table = faults.across_repeats(verdicts)
    rec = table.filter((table["episode"] == "3 s pause")
                       & (table["measure"] == "recovery_to_success_s")).to_dicts()[0]
    third = verdicts[2].data["measures"]["faults"][0]["recovery_to_success_s"]
    assert (rec["no_failure"], rec["not_reached"], rec["mean"]) == (2, 0, third)
    text = " ".join(faults.lines(table, verdicts))
    assert f"recovered in {third:,.1f} s [no failed or empty second in 2 of 3]" in text
    for v in verdicts:
        v.data["measures"]["faults"][0]["first_bad_s"] = None
    text = " ".join(faults.lines(faults.across_repeats(verdicts), verdicts))
    assert "3 s pause: cassandra (3 repeat(s)): " in text
    assert "recovered in - (no failed or empty second)" in text


def test_the_durability_of_each_database_is_said_beside_the_faults():
    """metadata.json "durability" of the fault phases (the runner's words), once a database,
    and what the faults do not test (a power loss)."""
    from types import SimpleNamespace
    record = {"survives": "a server process crash", "default": True,
              "acknowledged_write": "in the commit log, fsynced every 10000ms (periodic)"}
    runs = [SimpleNamespace(phase="fault-pause", database="cassandra",
                            metadata={"durability": record}),
            SimpleNamespace(phase="fault-pause-read-back", database="cassandra",
                            metadata={"durability": record}),
            SimpleNamespace(phase="read-batch1", database="hbase",
                            metadata={"durability": record})]
    lines = faults.durability_lines(runs)
    assert lines[0] == ("durability: cassandra: an acknowledged write survives a server process "
                        "crash (in the commit log, fsynced every 10000ms (periodic); the "
                        "database's default)")
    assert len(lines) == 2 and "no fault here tests a power loss" in lines[1]
    assert faults.durability_lines(runs[2:]) == []


def test_an_acknowledged_write_lost_heads_answer_faults_and_the_report(tmp_path):
    """A copy of the real pause verdict whose read-back missed 3 acknowledged keys: the first
    line of answer.txt, faults.txt and report.html says so, and ycsb-report warns."""
    import json
    copy_dir = tmp_path / "run"
    shutil.copytree(RUN, copy_dir)
    path = copy_dir / "fault-verdict-cassandra-pause.json"
    verdict = json.loads(path.read_text())
    verdict["keys_found"] = verdict["keys_acknowledged"] - 3
    verdict["acknowledged_writes_lost"] = 3
    path.write_text(json.dumps(verdict))
    outcome = build_report_outcome([str(copy_dir)], tmp_path / "report")
    counts = (f"ACKNOWLEDGED WRITES LOST: 3 on cassandra in its pause fault: "
              f"{verdict['keys_acknowledged']:,} keys acknowledged, {verdict['keys_found']:,} "
              "found by the read-back; ")
    # the kept verdict is from before the key logs: which keys is not known
    first = counts + ("which keys is not recorded (fault-verdict-cassandra-pause.json has no "
                      "key-by-key judgement: a run from before the key logs, or its logs were "
                      "missing)")
    for name in ("answer.txt", "faults.txt"):
        assert (tmp_path / "report" / name).read_text().splitlines()[0] == first, name
    html = (tmp_path / "report" / "report.html").read_text()
    assert html.index("ACKNOWLEDGED WRITES LOST") < html.index("<h2")
    assert outcome.warnings[0] == first
    # with the key logs' judgement (scripts' fault_keys.lost), the line names the keys
    verdict["keys"] = {"judged": True, "lost": 3, "lost_keys": ["user1001", "user1002"],
                       "not_acknowledged": 0, "not_found": 3}
    path.write_text(json.dumps(verdict))
    named = build_report_outcome([str(copy_dir)], tmp_path / "named")
    assert named.warnings[0] == counts + ("keys user1001 user1002 and 1 more "
                                          "(fault-verdict-cassandra-pause.json, keys.lost_keys)")
    # the real verdicts lost nothing: no such line
    clean = build_report_outcome([str(RUN)], tmp_path / "clean")
    assert not any("LOST" in w for w in clean.warnings)
    assert "LOST" not in (tmp_path / "clean" / "faults.txt").read_text()
