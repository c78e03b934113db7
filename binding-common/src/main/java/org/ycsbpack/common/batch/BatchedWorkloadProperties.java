package org.ycsbpack.common.batch;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.ycsbpack.common.BindingProperty;

/** Properties of {@link BatchedWorkload}, beside CoreWorkload's own; the README table's source. */
public final class BatchedWorkloadProperties {
  private BatchedWorkloadProperties() {
  }

  public static final BindingProperty BATCH_SIZE = BindingProperty.of("batchsize", "10",
      "Records per batch operation (1-10000); the keys of one batch are distinct.");
  public static final BindingProperty BATCH_READ = BindingProperty.of("batchreadproportion",
      "0", "Share of BATCH_READ operations (multi-key read) in the run phase.");
  public static final BindingProperty BATCH_UPDATE = BindingProperty.of("batchupdateproportion",
      "0", "Share of BATCH_UPDATE operations (multi-key update).");
  public static final BindingProperty BATCH_INSERT = BindingProperty.of("batchinsertproportion",
      "0", "Share of BATCH_INSERT operations (new keys after recordcount, like INSERT).");
  public static final BindingProperty DELETE = BindingProperty.of("deleteproportion", "0",
      "Share of single DELETE operations of existing keys (CoreWorkload has none); with "
          + "requestdistribution=sequential each key of the range is deleted once, in order.");
  public static final BindingProperty BATCH_LOAD = BindingProperty.of("batchload", "false",
      "Load phase: insert in batches of batchsize (BATCH_INSERT) instead of single INSERTs; "
          + "each batch is a run of consecutive keys, so only the range's last batch is short; "
          + "each client thread stops when the key range insertstart..insertstart+insertcount is "
          + "done.");
  public static final BindingProperty KEY_LOG = BindingProperty.optional("ycsbpack.keylog",
      "File to which the keys of every batch not all done are appended, one line per batch: "
          + "writes not acknowledged (failed, or unknown when the binding did not say which of "
          + "its keys failed) and keys a read did not find (missing); unset: none logged.");

  public static final List<BindingProperty> ALL = Collections.unmodifiableList(Arrays.asList(
      BATCH_SIZE, BATCH_READ, BATCH_UPDATE, BATCH_INSERT, DELETE, BATCH_LOAD, KEY_LOG));
}
