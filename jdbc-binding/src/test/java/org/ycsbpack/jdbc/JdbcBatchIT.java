package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ycsbpack.common.testing.TestRows.row;
import static org.ycsbpack.common.testing.TestRows.strings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * What jdbc batches add to the binding contract (BindingContractIT: batched reads and writes
 * equal the single operations, in both write modes) on the real server: an update batch of
 * several field sets with a key that is not there, and a batch the server refuses as a whole.
 */
class JdbcBatchIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private JdbcClient client(String jdbcBatch) throws DBException {
    return binding.client("table", "it_batch", "jdbc.createtable", "true", "fieldcount", "2",
        "jdbc.batchupdateapi", jdbcBatch);
  }

  private static JdbcBatches batches(JdbcClient c, String jdbcBatch) {
    return new JdbcBatches(c.connectionForTests(), Boolean.parseBoolean(jdbcBatch),
        new ErrorLog("jdbc-test"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"false", "true"})
  void anUpdateBatchOfSeveralFieldSetsCountsTheKeyThatIsNotThere(String jdbcBatch)
      throws DBException {
    JdbcClient c = client(jdbcBatch);
    JdbcBatches batches = batches(c, jdbcBatch);
    List<String> keys = new ArrayList<>();
    List<Map<String, ByteIterator>> rows = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      keys.add("b" + jdbcBatch + "-" + i);
      rows.add(row(keys.get(i), ""));
    }
    assertEquals(25, batches.batchInsert("it_batch", keys, rows).ok());

    // two field sets (one statement or batch each), and one key that is absent
    List<String> updateKeys = new ArrayList<>(keys);
    updateKeys.add("absent-" + jdbcBatch);
    List<Map<String, ByteIterator>> changes = new ArrayList<>();
    for (int i = 0; i < updateKeys.size(); i++) {
      Map<String, ByteIterator> v = new HashMap<>();
      v.put(i % 2 == 0 ? "field1" : "field0", new StringByteIterator(updateKeys.get(i) + "+"));
      changes.add(v);
    }
    BatchResult updated = batches.batchUpdate("it_batch", updateKeys, changes);
    assertEquals(25, updated.ok(), updated.toString());
    assertEquals(1, updated.missing(), updated.toString());

    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      Map<String, ByteIterator> single = new HashMap<>();
      assertEquals(Status.OK, c.read("it_batch", key, null, single));
      Map<String, String> expected = new HashMap<>();
      expected.put("field0", i % 2 == 0 ? key + "/0" : key + "+");
      expected.put("field1", i % 2 == 0 ? key + "+" : key + "/1");
      assertEquals(expected, strings(single), key);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"false", "true"})
  void aFailedBatchCountsItsRecordsUnderTheFailure(String jdbcBatch) throws DBException {
    JdbcClient c = client(jdbcBatch);
    JdbcBatches batches = batches(c, jdbcBatch);
    List<String> keys = Arrays.asList("dup-" + jdbcBatch + "-1", "dup-" + jdbcBatch + "-2");
    List<Map<String, ByteIterator>> rows = Arrays.asList(row(keys.get(0), ""),
        row(keys.get(1), ""));
    assertEquals(2, batches.batchInsert("it_batch", keys, rows).ok());
    BatchResult again = batches.batchInsert("it_batch", keys, Arrays.asList(row(keys.get(0), ""),
        row(keys.get(1), "")));
    assertEquals("DUPLICATE_KEY", again.status().getName(), again.toString());
    assertEquals(0, again.ok(), again.toString());
    assertEquals(2, again.failed(), again.toString());
  }
}
