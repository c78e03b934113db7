package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The RPC client's event loop on the real test HBase: with {@code hbase.rpc.eventloop=epoll} the
 * binding's epoll thread runs and the calls go through, and a client of the same JVM asking for
 * another event loop of the binding is refused in one sentence (HBase keeps one per JVM). The
 * other tests of this JVM use HBase's default, which the binding leaves alone.
 */
class RpcEventLoopIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private static boolean threadNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().startsWith(prefix));
  }

  @Test
  void epollCarriesTheCallsAndAnotherChoiceInTheSameJvmIsRefused() throws DBException {
    HBaseSaltedClient c = binding.client("table", "it_eventloop", "hbase.createtable", "true",
        "hbase.presplit", "2", "hbase.rpc.eventloop", "epoll");
    byte[] value = "v".getBytes(StandardCharsets.UTF_8);
    assertEquals(Status.OK, c.insert("it_eventloop", "user1",
        Collections.singletonMap("field0", new ByteArrayByteIterator(value))));
    Map<String, ByteIterator> row = new HashMap<>();
    assertEquals(Status.OK, c.read("it_eventloop", "user1", null, row));
    assertArrayEquals(value, row.get("field0").toArray());

    assertTrue(threadNamed("hbase-salted-rpc-epoll-"), "the binding's epoll event loop runs");

    DBException refused = assertThrows(DBException.class, () -> binding.client(
        "table", "it_eventloop", "hbase.rpc.eventloop", "nio"));
    assertTrue(refused.getMessage().contains("property hbase.rpc.eventloop: this JVM's HBase "
        + "client already runs on epoll with 1 thread, set by an earlier connection, and HBase "
        + "keeps one such event loop per JVM; give every client of the JVM the same "
        + "hbase.rpc.eventloop and hbase.rpc.eventloop.threads (here: nio with 1 thread)"),
        refused.getMessage());
  }
}
