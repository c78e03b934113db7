package org.ycsbpack.common.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.batch.BatchResult;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.Status;

/**
 * What every binding's list-append must do, run by each binding against its real database: a
 * subclass says how to get its {@link ListOperations} (on a ready {@code history} table) and
 * which property sets select its batch modes.
 */
public abstract class ListOperationsContract {
  /** The binding's list operations with these extra properties, table "history" prepared. */
  protected abstract ListOperations lists(String... properties) throws Exception;

  /** Property sets (key, value, ...) of every batch mode the binding has. */
  protected abstract List<String[]> batchModes();

  @Test
  void aListReadReturnsEveryAppendedElementInOrder() throws Exception {
    ListOperations lists = lists();
    List<String> appended = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      appended.add("{\"n\":" + i + "}");
      assertEquals(Status.OK, lists.append("history", "172.68.0.1", "ip", appended.get(i), 600));
    }
    List<String> read = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.0.1", "ip", read));
    assertEquals(appended, read);
    assertEquals(Status.NOT_FOUND, lists.readList("history", "172.68.0.1", "email",
        new ArrayList<>()), "another type of the same key is another list");
  }

  @Test
  void appendedElementsExpireAfterTheirTtl() throws Exception {
    ListOperations lists = lists();
    assertEquals(Status.OK, lists.append("history", "172.68.9.9", "ip", "short-lived", 2));
    assertEquals(Status.OK, lists.append("history", "172.68.9.9", "ip", "long-lived", 600));
    List<String> before = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.9.9", "ip", before));
    assertEquals(Arrays.asList("short-lived", "long-lived"), before);
    Thread.sleep(3500);
    List<String> read = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.9.9", "ip", read));
    assertEquals(Arrays.asList("long-lived"), read, "the 2 s element is gone, the other stays");
  }

  @Test
  void aListWhoseOnlyElementExpiredIsNotFound() throws Exception {
    ListOperations lists = lists();
    assertEquals(Status.OK, lists.append("history", "172.68.9.10", "ip", "short-lived", 1));
    Thread.sleep(2500);
    assertEquals(Status.NOT_FOUND, lists.readList("history", "172.68.9.10", "ip",
        new ArrayList<>()));
  }

  @Test
  void aBatchedListReadEqualsTheSingleReadsAndCountsMissingKeysInEveryMode() throws Exception {
    int mode = 0;
    for (String[] properties : batchModes()) {
      ListOperations lists = lists(properties);
      String tag = "-mode" + mode++;
      List<String> keys = Arrays.asList("10.0.0.1" + tag, "10.0.0.2" + tag, "10.0.0.3" + tag);
      BatchResult written = lists.batchAppend("history", keys, "ip",
          Arrays.asList("a", "b", "c"), 600);
      assertSame(Status.OK, written.status(), Arrays.toString(properties) + " " + written);
      assertEquals(3, written.ok());
      Map<String, List<String>> out = new HashMap<>();
      List<String> asked = new ArrayList<>(keys);
      asked.add(1, "10.9.9.9-absent");
      BatchResult r = lists.batchReadList("history", asked, "ip", out);
      assertSame(Status.OK, r.status(), Arrays.toString(properties) + " " + r);
      assertEquals(3, r.ok());
      assertEquals(1, r.missing());
      for (String key : keys) {
        List<String> single = new ArrayList<>();
        assertEquals(Status.OK, lists.readList("history", key, "ip", single));
        assertEquals(single, out.get(key), "a batched read equals the single read of " + key);
      }
      assertEquals(Arrays.asList("b"), out.get("10.0.0.2" + tag));
    }
  }
}
