package org.ycsbpack.common.listappend;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.ycsbpack.common.BindingProperty;

/** Properties of {@link ListAppendWorkload}; defaults follow the anti-fraud report (S1). */
public final class ListAppendProperties {
  private ListAppendProperties() {
  }

  public static final BindingProperty TABLE = BindingProperty.of("listappend.table", "history",
      "Table of the lists: `(custom_id, type) -> list of elements`.");
  public static final BindingProperty KEYS = BindingProperty.of("listappend.keys", "65536",
      "Distinct list keys: `172.68.x.y` IPv4-like as in the report, then 172.69.0.0 onwards "
          + "(at most 12320768).");
  public static final BindingProperty TYPE = BindingProperty.of("listappend.type", "ip",
      "The `type` part of every list's key.");
  public static final BindingProperty TTL = BindingProperty.of("listappend.ttl", "86400",
      "Time to live of each appended element, in seconds.");
  public static final BindingProperty ELEMENT_SIZE = BindingProperty.of("listappend.elementsize",
      "200", "Approximate bytes of one JSON-like element (user, password, email, phone, ip, "
          + "source, address, company); at least 120.");
  public static final BindingProperty APPEND = BindingProperty.of("appendproportion", "0.5",
      "Share of APPEND operations (BATCH_APPEND of batchsize keys when batchsize > 1).");
  public static final BindingProperty READ_LIST = BindingProperty.of("readlistproportion", "0.5",
      "Share of READ_LIST operations (BATCH_READ_LIST when batchsize > 1).");
  public static final BindingProperty BATCH_SIZE = BindingProperty.of("batchsize", "1",
      "Keys per operation: 1 for single appends/reads, 10 for the report's batched variant. "
          + "A load phase of recordcount operations then appends recordcount × batchsize "
          + "elements.");
  public static final BindingProperty DISTRIBUTION = BindingProperty.of("requestdistribution",
      "uniform", "How keys are drawn: `uniform` or `zipfian`.");

  public static final BindingProperty COUNT = BindingProperty.of("listappend.count", "false",
      "Instead of a workload, count the stored elements once and print "
          + "`[LIST_ELEMENTS], Stored, <n>` (what scripts/check-list-appends runs).");

  public static final List<BindingProperty> ALL = Collections.unmodifiableList(Arrays.asList(
      TABLE, KEYS, TYPE, TTL, ELEMENT_SIZE, APPEND, READ_LIST, BATCH_SIZE, DISTRIBUTION, COUNT));
}
