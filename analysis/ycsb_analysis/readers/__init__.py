"""One reader per YCSB output format, each a small module (its docstring shows the format):

- :mod:`.line_formats`: every YCSB line format, one pattern each (standard library only: the
  scenario runner, the bench scripts and ``check-list-appends`` match single lines with it);
- :mod:`.lines`: a text file as numbered lines, each labelled with its kind (the classifier);
- :mod:`.final_report`: the final report and the ``measurementtype=timeseries`` rows;
- :mod:`.status`: status lines; :mod:`.raw`: ``measurementtype=raw`` datapoints, summed up per
  second as they are read; :mod:`.exporter_json`: the files of YCSB's two JSON exporters;
- :mod:`.hdr`: ``.hdr`` interval logs (HdrHistogram V1 and V2);
- :mod:`.output`: a whole file — its outputs split apart, each read by the readers above;
- :mod:`.fault_verdicts`: the scenario runner's ``fault-verdict-*.json`` (S2's faults), not a
  YCSB format but read here once, for the fault charts and the summary across repeats.

The large formats (status lines, raw datapoints) are read with polars: it reads a file's
lines and runs each format's regular expression over a whole column in Rust, and writes the
report's CSV and Parquet files, so one library does the reading and the writing without a
scanner of our own. Every frame a reader hands on is a polars frame (a missing figure: null).
"""
