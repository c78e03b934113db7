package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The CQL of the five operations and how often it is prepared, against a session that only
 * records what it is asked to prepare (what the server answers is the integration tests' part).
 */
class CqlStatementsTest {
  /** Every CQL text the session was asked to prepare, and how many times. */
  private final ConcurrentHashMap<String, AtomicInteger> prepared = new ConcurrentHashMap<>();

  private CqlStatements statements() {
    CqlSession session = (CqlSession) Proxy.newProxyInstance(CqlSession.class.getClassLoader(),
        new Class<?>[] {CqlSession.class}, (proxy, method, args) -> {
          if (method.getName().equals("prepare") && args[0] instanceof String) {
            String cql = (String) args[0];
            prepared.computeIfAbsent(cql, k -> new AtomicInteger()).incrementAndGet();
            return preparedStatement(cql);
          }
          throw new UnsupportedOperationException(method.getName());
        });
    return new CqlStatements(session, "ks", "usertable");
  }

  private static PreparedStatement preparedStatement(String cql) {
    return (PreparedStatement) Proxy.newProxyInstance(
        PreparedStatement.class.getClassLoader(), new Class<?>[] {PreparedStatement.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "getQuery":
            case "toString":
              return cql;
            case "hashCode":
              return System.identityHashCode(proxy);
            case "equals":
              return proxy == args[0];
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  @Test
  void eachOperationHasItsCql() {
    CqlStatements s = statements();
    List<String> two = Arrays.asList("field1", "field0");
    assertEquals("SELECT * FROM ks.usertable WHERE y_id = ?", s.read(null).getQuery());
    assertEquals("SELECT \"field0\", \"field1\" FROM ks.usertable WHERE y_id = ?",
        s.read(new LinkedHashSet<>(two)).getQuery());
    assertEquals("SELECT y_id, \"field1\" FROM ks.usertable WHERE y_id IN ?",
        s.readIn(Collections.singleton("field1")).getQuery());
    assertEquals("SELECT * FROM ks.usertable WHERE token(y_id) >= token(?) LIMIT ?",
        s.scan(null).getQuery());
    assertEquals("INSERT INTO ks.usertable (y_id, \"field0\", \"field1\") VALUES (?, ?, ?)",
        s.insert(new LinkedHashSet<>(Arrays.asList("field1", "field0"))).statement.getQuery());
    assertEquals("UPDATE ks.usertable SET \"field1\" = ? WHERE y_id = ?",
        s.update(Collections.singleton("field1")).statement.getQuery());
    assertEquals("DELETE FROM ks.usertable WHERE y_id = ?", s.delete().getQuery());
  }

  @Test
  void aStatementIsPreparedOncePerFieldSetWhateverTheFieldOrder() {
    CqlStatements s = statements();
    PreparedStatement first = s.read(new LinkedHashSet<>(Arrays.asList("field0", "field1")));
    PreparedStatement again = s.read(new LinkedHashSet<>(Arrays.asList("field1", "field0")));
    assertSame(first, again);
    assertArrayEquals(new String[] {"field0", "field2"},
        s.update(new LinkedHashSet<>(Arrays.asList("field2", "field0"))).fields,
        "values are bound in the statement's (name) order");
    s.read(null);
    s.read(null);
    assertEquals(3, prepared.size(), prepared.toString());
    prepared.values().forEach(n -> assertEquals(1, n.get(), prepared.toString()));
  }

  @Test
  void threadsAskingForTheSameStatementAtOnceShareOnePreparation() throws Exception {
    CqlStatements s = statements();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<PreparedStatement> got = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 8; i++) {
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        got.add(s.update(new LinkedHashSet<>(Arrays.asList("field2", "field0"))).statement);
      });
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(8, got.size());
    assertEquals(1, prepared.get("UPDATE ks.usertable SET \"field0\" = ?, \"field2\" = ? "
        + "WHERE y_id = ?").get(), "prepared once for all threads");
    got.forEach(p -> assertSame(got.get(0), p));
  }
}
