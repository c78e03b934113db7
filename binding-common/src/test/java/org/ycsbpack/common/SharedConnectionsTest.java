package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.batch.BatchBindings;
import org.ycsbpack.common.batch.BatchOperations;
import org.ycsbpack.common.listappend.ListBindings;
import site.ycsb.DBException;

class SharedConnectionsTest {
  /** A connection that counts its opens and closes, and may fail to close. */
  private static final class Counted implements AutoCloseable {
    static final AtomicInteger OPENED = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();
    boolean failClose;

    Counted() {
      OPENED.incrementAndGet();
    }

    @Override
    public void close() throws IOException {
      closed.incrementAndGet();
      if (failClose) {
        throw new IOException("socket gone");
      }
    }
  }

  private final SharedConnections<Counted> connections =
      new SharedConnections<>("demo", "the session", ErrorLog::describe);

  @Test
  void threadsWithTheSameKeyShareOneConnectionClosedByTheLastRelease() throws Exception {
    int before = Counted.OPENED.get();
    SharedConnections.Lease<Counted> a = connections.acquire("k", Counted::new);
    SharedConnections.Lease<Counted> b = connections.acquire("k", Counted::new);
    assertSame(a.connection(), b.connection());
    assertEquals(before + 1, Counted.OPENED.get());
    a.release();
    a.release(); // a second release of one lease must not close the connection under b
    assertEquals(0, b.connection().closed.get());
    b.release();
    assertEquals(1, b.connection().closed.get());
  }

  @Test
  void aDifferentKeyGetsItsOwnConnection() throws Exception {
    SharedConnections.Lease<Counted> a = connections.acquire("k1", Counted::new);
    SharedConnections.Lease<Counted> b = connections.acquire("k2", Counted::new);
    assertEquals(false, a.connection() == b.connection());
    a.release();
    b.release();
  }

  @Test
  void releaseWithdrawsWhatTheThreadPublished() throws Exception {
    SharedConnections.Lease<Counted> lease = connections.acquire("k", Counted::new);
    BatchOperations batches = (BatchOperations) Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {BatchOperations.class}, (p, m, a) -> null);
    lease.publish(batches, null);
    assertSame(batches, BatchBindings.current());
    lease.release();
    assertNull(BatchBindings.current());
    assertNull(ListBindings.current());
  }

  @Test
  void aFailedCloseIsOneSentenceNamingBindingAndConnection() throws Exception {
    SharedConnections.Lease<Counted> lease = connections.acquire("k", Counted::new);
    lease.connection().failClose = true;
    DBException e = assertThrows(DBException.class, lease::release);
    assertEquals("demo: closing the session failed: IOException: socket gone", e.getMessage());
  }

  @Test
  void aFailedInitGivesItsLeaseBackAndSaysWhatFailed() throws Exception {
    SharedConnections.Lease<Counted> lease = connections.acquire("k", Counted::new);
    DBException e = connections.initFailed(lease, new IllegalStateException("no table"));
    assertEquals("demo: could not start: IllegalStateException: no table", e.getMessage());
    assertEquals(1, lease.connection().closed.get());
    DBException own = connections.initFailed(null, new DBException("hosts: bad value"));
    assertEquals("demo: hosts: bad value", own.getMessage());
  }
}
