package org.ycsbpack.common.listappend;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.ycsbpack.common.InitFailure;
import org.ycsbpack.common.PropertyValues;
import org.ycsbpack.common.YcsbCore;
import org.ycsbpack.common.batch.BatchResult;
import org.ycsbpack.common.batch.OperationMeasurement;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.generator.DiscreteGenerator;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.UniformLongGenerator;

/**
 * The anti-fraud history of scenario S1 as a YCSB workload: APPEND adds one ~200-byte element
 * with a TTL to the list of a random {@code 172.68.x.y} key; READ_LIST reads a whole list. With
 * {@code batchsize} > 1 they become BATCH_APPEND / BATCH_READ_LIST of distinct keys (the report's
 * BEGIN BATCH of 10 appends and 10-key IN reads), with records counted under
 * {@code <OP>-RECORDS}. The load phase appends too: its recordcount operations append
 * recordcount elements, or recordcount × batchsize with {@code batchsize} > 1.
 *
 * <p>With {@code listappend.count=true} the run does one thing: it counts the stored elements and
 * prints {@code [LIST_ELEMENTS], Stored, <n>}, the "nothing lost" check of
 * scripts/check-list-appends.
 */
public class ListAppendWorkload extends Workload {
  public static final String APPEND = "APPEND";
  public static final String READ_LIST = "READ_LIST";
  public static final String BATCH_APPEND = "BATCH_APPEND";
  public static final String BATCH_READ_LIST = "BATCH_READ_LIST";

  private String table;
  private String type;
  private int ttl;
  private int elementSize;
  private int batchSize;
  private long keys;
  private boolean countOnly;
  private NumberGenerator keyChooser;
  private DiscreteGenerator operations;

  @Override
  public void init(Properties p) throws WorkloadException {
    YcsbCore.check("ListAppendWorkload", false);
    PropertyValues v = new PropertyValues(p);
    try {
      table = v.string(ListAppendProperties.TABLE);
      type = v.string(ListAppendProperties.TYPE);
      ttl = v.integer(ListAppendProperties.TTL, 0, 630_720_000);
      elementSize = v.integer(ListAppendProperties.ELEMENT_SIZE, 120, 1_000_000);
      batchSize = v.integer(ListAppendProperties.BATCH_SIZE, 1, 10_000);
      keys = v.longValue(ListAppendProperties.KEYS, 1, ListElements.MAX_KEYS);
      countOnly = v.bool(ListAppendProperties.COUNT);
      String distribution = v.choice(ListAppendProperties.DISTRIBUTION, "uniform", "zipfian");
      keyChooser = "zipfian".equals(distribution) ? new ScrambledZipfianGenerator(0, keys - 1)
          : new UniformLongGenerator(0, keys - 1);
      operations = new DiscreteGenerator();
      double append = v.proportion(ListAppendProperties.APPEND);
      double read = v.proportion(ListAppendProperties.READ_LIST);
      if (append + read <= 0) {
        throw new WorkloadException("appendproportion and readlistproportion are both 0: set "
            + "one of them above 0");
      }
      if (append > 0) {
        operations.addValue(append, batchSize > 1 ? BATCH_APPEND : APPEND);
      }
      if (read > 0) {
        operations.addValue(read, batchSize > 1 ? BATCH_READ_LIST : READ_LIST);
      }
    } catch (DBException e) {
      throw new WorkloadException(e.getMessage());
    }
  }

  @Override
  public Object initThread(Properties p, int threadId, int threadCount) {
    ListOperations ops = ListBindings.current();
    if (ops == null) {
      InitFailure.report("listappend", "this binding has no list operations; use cassandra4, "
          + "hbase-salted or jdbc", null);
      return null;
    }
    String problem = ops.prepareListTable(table);
    if (problem != null) {
      InitFailure.report("listappend", problem, null);
      return null;
    }
    return ops;
  }

  @Override
  public boolean doInsert(DB db, Object state) {
    return state != null && append((ListOperations) state, batchSize > 1 ? BATCH_APPEND : APPEND);
  }

  @Override
  public boolean doTransaction(DB db, Object state) {
    if (state == null) {
      return false;
    }
    ListOperations ops = (ListOperations) state;
    if (countOnly) {
      long n = ops.countElements(table, type);
      System.out.println("[LIST_ELEMENTS], Stored, " + n);
      return false;
    }
    String op = operations.nextString();
    if (APPEND.equals(op) || BATCH_APPEND.equals(op)) {
      append(ops, op);
    } else if (READ_LIST.equals(op)) {
      String key = ListElements.key(keyChooser.nextValue().longValue());
      OperationMeasurement.single(READ_LIST, () -> ops.readList(table, key, type,
          new ArrayList<>()));
    } else {
      List<String> batch = distinctKeys();
      OperationMeasurement.batch(BATCH_READ_LIST, () -> ops.batchReadList(table, batch, type,
          new HashMap<>()));
    }
    return true;
  }

  /** Returns false when the append failed, which ends a load thread as CoreWorkload does. */
  private boolean append(ListOperations ops, String op) {
    if (APPEND.equals(op)) {
      String key = ListElements.key(keyChooser.nextValue().longValue());
      String element = ListElements.element(key, elementSize);
      return OperationMeasurement.single(APPEND, () -> ops.append(table, key, type, element, ttl))
          .isOk();
    }
    List<String> batch = distinctKeys();
    List<String> elements = new ArrayList<>(batch.size());
    for (String key : batch) {
      elements.add(ListElements.element(key, elementSize));
    }
    BatchResult r = OperationMeasurement.batch(BATCH_APPEND, () -> ops.batchAppend(table, batch,
        type, elements, ttl));
    return r.failed() == 0;
  }

  private List<String> distinctKeys() {
    Set<Long> picked = new LinkedHashSet<>();
    int attempts = 0;
    while (picked.size() < Math.min(batchSize, keys) && attempts++ < batchSize * 20) {
      picked.add(keyChooser.nextValue().longValue());
    }
    List<String> out = new ArrayList<>(picked.size());
    for (long n : picked) {
      out.add(ListElements.key(n));
    }
    return out;
  }
}
