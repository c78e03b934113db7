package org.ycsbpack.common.batch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;
import org.ycsbpack.common.BindingProperty;
import org.ycsbpack.common.PropertyValues;
import org.ycsbpack.common.YcsbCore;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.RandomByteIterator;
import site.ycsb.WorkloadException;
import site.ycsb.generator.DiscreteGenerator;
import site.ycsb.generator.ExponentialGenerator;
import site.ycsb.workloads.CoreWorkload;

/**
 * CoreWorkload plus multi-key operations: BATCH_READ, BATCH_UPDATE and BATCH_INSERT of
 * {@code batchsize} distinct keys (and single DELETEs, which CoreWorkload lacks), drawn by the
 * usual request distribution, mixed with the usual
 * operations by their proportions; and, with {@code batchload=true}, a load phase in batches.
 *
 * <p>A batch is ONE YCSB operation (counts, throughput, -target pacing, latency per batch). The
 * records it touched are reported as statuses of the companion metric {@code <OP>-RECORDS}
 * ({@code Return=OK} per record done, {@code NOT_FOUND} per missing key, the batch's error status
 * per failed record), so records/s = OK count of {@code <OP>-RECORDS} / run time, exactly.
 */
public class BatchedWorkload extends CoreWorkload {
  public static final String BATCH_READ = "BATCH_READ";
  public static final String BATCH_UPDATE = "BATCH_UPDATE";
  public static final String BATCH_INSERT = "BATCH_INSERT";
  public static final String DELETE = "DELETE";

  private int batchSize;
  private boolean batchLoad;
  private final Object loadKeysLock = new Object();
  private long loadEnd;
  private List<String> fieldNames;
  /** The keys of batches not all done ({@code ycsbpack.keylog}), or null. */
  private KeyLog keyLog;

  /** Per client thread: the batching binding of that thread (or the single-op fallback). */
  private static final class ThreadState {
    private BatchOperations ops = BatchBindings.current();
  }

  @Override
  public void init(Properties p) throws WorkloadException {
    YcsbCore.check("BatchedWorkload", true);
    super.init(p);
    PropertyValues values = new PropertyValues(p);
    try {
      batchSize = values.integer(BatchedWorkloadProperties.BATCH_SIZE, 1, 10_000);
      batchLoad = values.bool(BatchedWorkloadProperties.BATCH_LOAD);
    } catch (DBException e) {
      throw new WorkloadException(e.getMessage());
    }
    long insertStart = Long.parseLong(p.getProperty(INSERT_START_PROPERTY,
        INSERT_START_PROPERTY_DEFAULT));
    long insertCount = Long.parseLong(p.getProperty(INSERT_COUNT_PROPERTY,
        String.valueOf(recordcount - insertStart)));
    loadEnd = insertStart + insertCount;
    String prefix = p.getProperty(FIELD_NAME_PREFIX, FIELD_NAME_PREFIX_DEFAULT);
    fieldNames = new ArrayList<>();
    for (int i = 0; i < fieldcount; i++) {
      fieldNames.add(prefix + i);
    }
    operationchooser = operations(p);
    String log = new PropertyValues(p).string(BatchedWorkloadProperties.KEY_LOG);
    keyLog = log == null || log.isEmpty() ? null : KeyLog.open(log);
  }

  @Override
  public void cleanup() throws WorkloadException {
    super.cleanup();
    if (keyLog != null) {
      keyLog.close();
    }
  }

  /** Times a batch ({@link OperationMeasurement#batch}) and logs its keys not done. */
  private BatchResult batch(String operation, List<String> keys, Map<String, ?> found,
                            Supplier<BatchResult> op) {
    BatchResult r = OperationMeasurement.batch(operation, op);
    if (keyLog != null) {
      keyLog.batch(operation, keys, found == null ? null : found.keySet(), r);
    }
    return r;
  }

  /**
   * CoreWorkload's operation mix plus the batch operations and DELETE, by their proportions.
   * When one of those is set, CoreWorkload's proportions left unset count as 0 (not its
   * defaults of read 0.95 / update 0.05), so {@code batchreadproportion=1} alone means only
   * batch reads.
   */
  private DiscreteGenerator operations(Properties p) throws WorkloadException {
    Map<String, BindingProperty> batch = new LinkedHashMap<>();
    batch.put(BATCH_READ, BatchedWorkloadProperties.BATCH_READ);
    batch.put(BATCH_UPDATE, BatchedWorkloadProperties.BATCH_UPDATE);
    batch.put(BATCH_INSERT, BatchedWorkloadProperties.BATCH_INSERT);
    batch.put(DELETE, BatchedWorkloadProperties.DELETE);
    PropertyValues values = new PropertyValues(p);
    Map<String, Double> shares = new LinkedHashMap<>();
    double batchTotal = 0;
    try {
      for (Map.Entry<String, BindingProperty> b : batch.entrySet()) {
        double share = values.proportion(b.getValue());
        shares.put(b.getKey(), share);
        batchTotal += share;
      }
    } catch (DBException e) {
      throw new WorkloadException(e.getMessage());
    }
    Properties core = p;
    if (batchTotal > 0) {
      core = new Properties();
      core.putAll(p);
      for (String name : new String[] {READ_PROPORTION_PROPERTY, UPDATE_PROPORTION_PROPERTY,
          INSERT_PROPORTION_PROPERTY, SCAN_PROPORTION_PROPERTY,
          READMODIFYWRITE_PROPORTION_PROPERTY}) {
        if (!core.containsKey(name)) {
          core.setProperty(name, "0");
        }
      }
    }
    DiscreteGenerator chooser = createOperationGenerator(core);
    for (Map.Entry<String, Double> share : shares.entrySet()) {
      if (share.getValue() > 0) {
        chooser.addValue(share.getValue(), share.getKey());
      }
    }
    return chooser;
  }

  @Override
  public Object initThread(Properties p, int mythreadid, int threadcount) {
    return new ThreadState();
  }

  private static BatchOperations ops(DB db, Object threadState) {
    ThreadState state = (ThreadState) threadState;
    if (state.ops == null) {
      FallbackNotice.once();
      state.ops = new SingleOperationBatches(db);
    }
    return state.ops;
  }

  @Override
  public boolean doInsert(DB db, Object threadState) {
    if (!batchLoad) {
      return super.doInsert(db, threadState);
    }
    List<String> keys = new ArrayList<>(batchSize);
    // one batch's keys are drawn together: threads drawing key by key would interleave, and
    // their last batches would end short at random, so the number of batches (the load's
    // operation count) would depend on thread timing rather than recordcount / batchsize
    synchronized (loadKeysLock) {
      for (int i = 0; i < batchSize; i++) {
        long keynum = keysequence.nextValue().longValue();
        if (keynum >= loadEnd) {
          break;
        }
        keys.add(keyName(keynum));
      }
    }
    if (keys.isEmpty()) {
      return false;
    }
    BatchResult r = batch(BATCH_INSERT, keys, null, () -> ops(db, threadState)
        .batchInsert(table, keys, newRows(keys.size(), true)));
    // like CoreWorkload.doInsert: a failed insert ends this thread's load
    return r.failed() == 0;
  }

  @Override
  public boolean doTransaction(DB db, Object threadState) {
    String operation = operationchooser.nextString();
    if (operation == null) {
      return false;
    }
    switch (operation) {
      case BATCH_READ:
        doBatchRead(db, threadState);
        break;
      case BATCH_UPDATE:
        doBatchUpdate(db, threadState);
        break;
      case BATCH_INSERT:
        doBatchInsert(db, threadState);
        break;
      case DELETE:
        db.delete(table, keyName(nextKeynum()));
        break;
      case "READ":
        doTransactionRead(db);
        break;
      case "UPDATE":
        doTransactionUpdate(db);
        break;
      case "INSERT":
        doTransactionInsert(db);
        break;
      case "SCAN":
        doTransactionScan(db);
        break;
      default:
        doTransactionReadModifyWrite(db);
    }
    return true;
  }

  private void doBatchRead(DB db, Object threadState) {
    List<String> keys = distinctKeys();
    Set<String> fields = null;
    if (!readallfields) {
      fields = new HashSet<>();
      fields.add(fieldNames.get(fieldchooser.nextValue().intValue()));
    }
    Set<String> wanted = fields;
    Map<String, Map<String, ByteIterator>> rows = new HashMap<>();
    batch(BATCH_READ, keys, rows, () -> ops(db, threadState).batchRead(table, keys, wanted, rows));
  }

  private void doBatchUpdate(DB db, Object threadState) {
    List<String> keys = distinctKeys();
    batch(BATCH_UPDATE, keys, null, () -> ops(db, threadState).batchUpdate(table, keys,
        newRows(keys.size(), writeallfields)));
  }

  private void doBatchInsert(DB db, Object threadState) {
    List<Long> keynums = new ArrayList<>(batchSize);
    List<String> keys = new ArrayList<>(batchSize);
    for (int i = 0; i < batchSize; i++) {
      long keynum = transactioninsertkeysequence.nextValue();
      keynums.add(keynum);
      keys.add(keyName(keynum));
    }
    try {
      batch(BATCH_INSERT, keys, null, () -> ops(db, threadState).batchInsert(table, keys,
          newRows(keys.size(), true)));
    } finally {
      for (long k : keynums) {
        transactioninsertkeysequence.acknowledge(k);
      }
    }
  }

  /** {@code batchsize} distinct existing keys by the requestdistribution (fewer if fewer exist). */
  private List<String> distinctKeys() {
    Set<Long> keynums = new LinkedHashSet<>();
    int attempts = 0;
    while (keynums.size() < batchSize && attempts++ < batchSize * 20) {
      keynums.add(nextKeynum());
    }
    List<String> keys = new ArrayList<>(keynums.size());
    for (long k : keynums) {
      keys.add(keyName(k));
    }
    return keys;
  }

  /** CoreWorkload's key naming, without linking buildKeyName (its signature differs by core). */
  private String keyName(long keynum) {
    return YcsbCore.keyName(keynum, zeropadding, orderedinserts);
  }

  /** CoreWorkload's key choice (private there): only keys that were inserted and acknowledged. */
  private long nextKeynum() {
    long keynum;
    if (keychooser instanceof ExponentialGenerator) {
      do {
        keynum = transactioninsertkeysequence.lastValue() - keychooser.nextValue().intValue();
      } while (keynum < 0);
    } else {
      do {
        keynum = keychooser.nextValue().intValue();
      } while (keynum > transactioninsertkeysequence.lastValue());
    }
    return keynum;
  }

  private List<Map<String, ByteIterator>> newRows(int n, boolean allFields) {
    List<Map<String, ByteIterator>> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Map<String, ByteIterator> row = new HashMap<>();
      if (allFields) {
        for (String f : fieldNames) {
          row.put(f, new RandomByteIterator(fieldlengthgenerator.nextValue().longValue()));
        }
      } else {
        row.put(fieldNames.get(fieldchooser.nextValue().intValue()),
            new RandomByteIterator(fieldlengthgenerator.nextValue().longValue()));
      }
      rows.add(row);
    }
    return rows;
  }

  /** Says once per JVM that batches run as single operations. */
  private static final class FallbackNotice {
    private static boolean said;

    static synchronized void once() {
      if (!said) {
        said = true;
        System.err.println("INFO batched workload: this binding offers no batch operations; "
            + "each batch runs as single operations (also counted as READ/INSERT/UPDATE)");
      }
    }
  }
}
