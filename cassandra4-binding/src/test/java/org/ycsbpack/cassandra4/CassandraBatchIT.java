package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ycsbpack.common.batch.BatchBindings;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.StringByteIterator;

/**
 * A failed batch on the real test node, as one BATCH statement and in async mode: every record
 * counts as failed under the cause. (That batches equal the single operations in every mode is
 * BindingContractIT's part.)
 */
class CassandraBatchIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"unlogged", "async"})
  void aFailedBatchCountsEveryRecordAsFailedUnderItsStatus(String mode) throws DBException {
    binding.client("cassandra.keyspace", "it_batch_rf3",
        "cassandra.createschema", "true", "cassandra.replication", "SimpleStrategy:3",
        "fieldcount", "2", "cassandra.batchwrite", mode, "cassandra.writeconsistencylevel", "ALL");
    List<String> keys = Arrays.asList("f1", "f2", "f3", "f4");
    List<Map<String, ByteIterator>> rows = new ArrayList<>();
    for (String k : keys) {
      Map<String, ByteIterator> v = new HashMap<>();
      v.put("field0", new StringByteIterator(k + "/0"));
      rows.add(v);
    }
    BatchResult r = BatchBindings.current().batchInsert("usertable", keys, rows);
    assertEquals("UNAVAILABLE", r.status().getName());
    assertEquals(0, r.ok());
    assertEquals(4, r.failed());
  }
}
