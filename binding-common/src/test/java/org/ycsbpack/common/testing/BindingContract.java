package org.ycsbpack.common.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ycsbpack.common.testing.TestRows.assertSameBytes;
import static org.ycsbpack.common.testing.TestRows.bytes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.batch.BatchBindings;
import org.ycsbpack.common.batch.BatchOperations;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * What every binding's YCSB operations must do, run by each binding against its real database:
 * CRUD that returns every byte value as written, batches that equal the single operations, and
 * failures that come back as a status named for their cause. A subclass says how to make a
 * client (its init() run on the test's thread, so its batch operations are published there) and
 * which property sets select its row layouts and batch modes.
 */
public abstract class BindingContract {
  private static final String TABLE = "usertable";

  /**
   * A client of the binding with these extra properties (key, value, ...), on a ready table
   * with the fields field0..field2; every property set of {@link #layouts()} and
   * {@link #batchModes()} gets a table of its own where it needs one.
   */
  protected abstract DB client(String... properties) throws Exception;

  /** Property sets of every row layout to run CRUD in (key salts, encodings); keys are userN. */
  protected List<String[]> layouts() {
    return Collections.singletonList(new String[0]);
  }

  /** Property sets (key, value, ...) of every batch mode the binding has. */
  protected abstract List<String[]> batchModes();

  /** A write the binding must refuse with a status, never an exception. */
  protected static final class RefusedWrite {
    final String[] properties;
    final String key;
    final Map<String, ByteIterator> values;
    final String status;

    /** Under {@code properties}, writing {@code values} to {@code key} gives {@code status}. */
    public RefusedWrite(String[] properties, String key, Map<String, ByteIterator> values,
                        String status) {
      this.properties = properties;
      this.key = key;
      this.values = values;
      this.status = status;
    }
  }

  /** The binding's own example of a write its database or key encoding refuses. */
  protected abstract RefusedWrite refusedWrite();

  /** Every byte value 0..255, in a different order per field (see {@link TestRows}). */
  protected static Map<String, ByteIterator> allByteValues() {
    return TestRows.allByteValues();
  }

  private static Map<String, byte[]> read(DB db, String key) {
    Map<String, ByteIterator> row = new HashMap<>();
    Status s = db.read(TABLE, key, null, row);
    assertSame(Status.OK, s, "read " + key);
    return bytes(row);
  }

  private static BatchOperations batches() {
    BatchOperations ops = BatchBindings.current();
    assertTrue(ops != null, "the client published its batch operations in init()");
    return ops;
  }

  private static String what(String[] properties) {
    return Arrays.toString(properties);
  }

  @Test
  void insertedValuesReadBackByteIdentical() throws Exception {
    int layout = 0;
    for (String[] properties : layouts()) {
      DB db = client(properties);
      String key = "user" + (1000 + layout++);
      // a ByteIterator is consumed when read: the expectation comes from a second, equal copy
      Map<String, byte[]> written = bytes(allByteValues());
      assertSame(Status.OK, db.insert(TABLE, key, allByteValues()), what(properties));
      Map<String, ByteIterator> row = new HashMap<>();
      assertSame(Status.OK, db.read(TABLE, key, null, row), what(properties));
      assertSameBytes(written, row, what(properties));
    }
  }

  @Test
  void aReadOfSomeFieldsReturnsOnlyThose() throws Exception {
    int layout = 0;
    for (String[] properties : layouts()) {
      DB db = client(properties);
      String key = "user" + (2000 + layout++);
      Map<String, byte[]> written = bytes(allByteValues());
      db.insert(TABLE, key, allByteValues());
      Map<String, ByteIterator> row = new HashMap<>();
      assertSame(Status.OK, db.read(TABLE, key, Collections.singleton("field1"), row));
      assertSameBytes(Collections.singletonMap("field1", written.get("field1")), row,
          what(properties));
    }
  }

  @Test
  void anUpdateChangesOnlyItsFields() throws Exception {
    int layout = 0;
    for (String[] properties : layouts()) {
      DB db = client(properties);
      String key = "user" + (3000 + layout++);
      Map<String, byte[]> expected = bytes(allByteValues());
      db.insert(TABLE, key, allByteValues());
      byte[] changed = {0, (byte) 0xff, 0x7f, (byte) 0x80, '\'', '"', '\n'};
      assertSame(Status.OK, db.update(TABLE, key,
          Collections.singletonMap("field2", new ByteArrayByteIterator(changed))));
      expected.put("field2", changed);
      Map<String, ByteIterator> row = new HashMap<>();
      db.read(TABLE, key, null, row);
      assertSameBytes(expected, row, what(properties));
    }
  }

  @Test
  void deletedAndNeverWrittenRowsAreNotFound() throws Exception {
    int layout = 0;
    for (String[] properties : layouts()) {
      DB db = client(properties);
      String key = "user" + (4000 + layout++);
      db.insert(TABLE, key, allByteValues());
      assertSame(Status.OK, db.delete(TABLE, key), what(properties));
      Map<String, ByteIterator> row = new HashMap<>();
      assertSame(Status.NOT_FOUND, db.read(TABLE, key, null, row), what(properties));
      assertSame(Status.NOT_FOUND, db.read(TABLE, "user999999", null, row), what(properties));
      assertTrue(row.isEmpty());
    }
  }

  @Test
  void aBatchedReadEqualsTheSingleReadsAndCountsMissingKeys() throws Exception {
    int mode = 0;
    for (String[] properties : batchModes()) {
      DB db = client(properties);
      BatchOperations ops = batches();
      List<String> keys = new ArrayList<>();
      List<Map<String, ByteIterator>> rows = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        keys.add("user" + (5000 + 100 * mode + i));
        rows.add(allByteValues());
      }
      mode++;
      assertEquals(7, ops.batchInsert(TABLE, keys, rows).ok(), what(properties));
      List<String> asked = new ArrayList<>(keys);
      asked.add(2, "user999001");
      asked.add("user999002");
      asked.add("user999003");
      Map<String, Map<String, ByteIterator>> batch = new HashMap<>();
      BatchResult r = ops.batchRead(TABLE, asked, null, batch);
      assertSame(Status.OK, r.status(), what(properties) + " " + r);
      assertEquals(7, r.ok(), what(properties) + " " + r);
      assertEquals(3, r.missing(), what(properties) + " " + r);
      assertEquals(0, r.failed(), what(properties) + " " + r);
      for (String key : keys) {
        assertSameBytes(read(db, key), batch.get(key), what(properties) + " " + key);
      }
      assertNull(batch.get("user999001"));
    }
  }

  @Test
  void batchedInsertsAndUpdatesEqualTheSingleWrites() throws Exception {
    int mode = 0;
    for (String[] properties : batchModes()) {
      DB db = client(properties);
      BatchOperations ops = batches();
      List<String> keys = new ArrayList<>();
      List<Map<String, ByteIterator>> rows = new ArrayList<>();
      List<Map<String, ByteIterator>> changes = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        keys.add("user" + (6000 + 100 * mode + i));
        rows.add(allByteValues());
        changes.add(Collections.singletonMap("field1",
            new ByteArrayByteIterator(("changed " + i).getBytes("UTF-8"))));
      }
      mode++;
      BatchResult inserted = ops.batchInsert(TABLE, keys, rows);
      assertSame(Status.OK, inserted.status(), what(properties) + " " + inserted);
      assertEquals(25, inserted.ok(), what(properties) + " " + inserted);
      BatchResult updated = ops.batchUpdate(TABLE, keys, changes);
      assertEquals(25, updated.ok(), what(properties) + " " + updated);
      for (int i = 0; i < keys.size(); i++) {
        Map<String, byte[]> expected = bytes(allByteValues());
        expected.put("field1", ("changed " + i).getBytes("UTF-8"));
        Map<String, ByteIterator> row = new HashMap<>();
        assertSame(Status.OK, db.read(TABLE, keys.get(i), null, row));
        assertSameBytes(expected, row, what(properties) + " " + keys.get(i));
      }
    }
  }

  @Test
  void aRefusedWriteIsAStatusNamedForItsCauseAlsoInABatch() throws Exception {
    RefusedWrite refused = refusedWrite();
    DB db = client(refused.properties);
    assertEquals(refused.status, db.insert(TABLE, refused.key, refused.values).getName());
    int mode = 0;
    for (String[] modeProperties : batchModes()) {
      List<String> all = new ArrayList<>(Arrays.asList(refused.properties));
      all.addAll(Arrays.asList(modeProperties));
      client(all.toArray(new String[0]));
      BatchResult r = batches().batchInsert(TABLE,
          Arrays.asList("user" + (7000 + mode++), refused.key),
          Arrays.asList(allByteValues(), refused.values));
      assertEquals(refused.status, r.status().getName(), what(modeProperties) + " " + r);
      assertTrue(r.failed() >= 1 && r.ok() + r.failed() == 2, what(modeProperties) + " " + r);
    }
  }
}
