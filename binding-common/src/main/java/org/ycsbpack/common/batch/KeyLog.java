package org.ycsbpack.common.batch;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import site.ycsb.Status;
import site.ycsb.WorkloadException;

/**
 * The keys of every batch that was not all done ({@code ycsbpack.keylog=<file>}): one line per
 * batch and outcome, tab-separated, {@code <operation> <outcome> <status> <keys, space-separated>}.
 * Outcomes: {@code failed} (those keys were not done: a write not acknowledged), {@code missing}
 * (reads: those keys were not there), {@code unknown} (some keys of the batch failed and the
 * binding did not say which: any of them may have been done). With the keys of the writes not
 * acknowledged and those a read-back did not find, the fault phase names every acknowledged key
 * that was lost, exactly (scripts/lib/ycsbpack/scenarios/fault_keys.py).
 */
final class KeyLog implements AutoCloseable {
  static final String FAILED = "failed";
  static final String MISSING = "missing";
  static final String UNKNOWN = "unknown";

  private final Path path;
  private final BufferedWriter out;

  private KeyLog(Path path, BufferedWriter out) {
    this.path = path;
    this.out = out;
  }

  /** Opens {@code file} for appending (several client processes of one phase may share it). */
  static KeyLog open(String file) throws WorkloadException {
    Path path = Paths.get(file);
    try {
      return new KeyLog(path, Files.newBufferedWriter(path, StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND));
    } catch (IOException e) {
      throw new WorkloadException("property " + BatchedWorkloadProperties.KEY_LOG.name() + "="
          + file + ": cannot write there (" + e + "); give a file in a directory that exists and "
          + "is writable");
    }
  }

  /**
   * Logs the keys of one batch that were not done. {@code found}: for reads, the keys whose rows
   * came back; null for writes.
   */
  void batch(String operation, List<String> keys, Collection<String> found, BatchResult r) {
    if (r.failed() == 0 && r.missing() == 0) {
      return;
    }
    List<String> failed = r.failedKeys(keys);
    if (failed == null) {
      write(operation, UNKNOWN, r.status().getName(), without(keys, found, List.of()));
      return;
    }
    write(operation, FAILED, r.status().getName(), failed);
    if (r.missing() > 0 && found != null) {
      write(operation, MISSING, Status.NOT_FOUND.getName(), without(keys, found, failed));
    }
  }

  private static List<String> without(List<String> keys, Collection<String> found,
                                      Collection<String> failed) {
    Set<String> not = new HashSet<>(failed);
    if (found != null) {
      not.addAll(found);
    }
    List<String> rest = new ArrayList<>(keys.size());
    for (String k : keys) {
      if (!not.contains(k)) {
        rest.add(k);
      }
    }
    return rest;
  }

  private synchronized void write(String operation, String outcome, String status,
                                  List<String> keys) {
    if (keys.isEmpty()) {
      return;
    }
    try {
      // one write per line (flushed): the clients of one phase append to the same file
      out.write(operation + "\t" + outcome + "\t" + status + "\t" + String.join(" ", keys) + "\n");
      out.flush();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the key log " + path + ": " + e, e);
    }
  }

  @Override
  public synchronized void close() throws WorkloadException {
    try {
      out.close();
    } catch (IOException e) {
      throw new WorkloadException("cannot write the key log " + path + ": " + e);
    }
  }
}
