package org.ycsbpack.common;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.ycsbpack.common.batch.BatchBindings;
import org.ycsbpack.common.batch.BatchOperations;
import org.ycsbpack.common.listappend.ListBindings;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.DBException;

/**
 * The connection lifecycle every binding shares: YCSB creates one DB instance per client thread,
 * and all of them use one connection (a CqlSession, an HBase Connection, a JDBC pool) per
 * distinct connection setting. A binding holds one static {@code SharedConnections}; each DB
 * instance takes a {@link Lease} in init(), publishes its batch and list operations for the
 * workloads on its thread, and releases the lease in cleanup(); the last release closes the
 * connection.
 *
 * @param <C> the connection type
 */
public final class SharedConnections<C extends AutoCloseable> {
  private final String binding;
  private final String what;
  private final Function<Throwable, String> describe;
  private final ConcurrentHashMap<String, SharedResource<C>> byKey = new ConcurrentHashMap<>();

  /**
   * @param binding  the binding's name, first word of every message
   * @param what     what the connection is called in messages ("the session", "the pool")
   * @param describe one line for an exception (a binding may mask secrets in it)
   */
  public SharedConnections(String binding, String what, Function<Throwable, String> describe) {
    this.binding = binding;
    this.what = what;
    this.describe = describe;
  }

  /** The shared connection for {@code key}, opened by the first caller; one use per lease. */
  public Lease<C> acquire(String key, SharedResource.Opener<C> opener) throws Exception {
    SharedResource<C> shared = byKey.computeIfAbsent(key, k -> new SharedResource<>());
    return new Lease<>(this, shared, shared.acquire(opener));
  }

  /**
   * The exception for a failing init() to throw, reported in one sentence by
   * {@link InitFailure}; the lease taken before the failure (null if none) is given back.
   */
  public DBException initFailed(Lease<C> lease, Exception e) {
    if (lease != null) {
      lease.releaseQuietly();
    }
    if (e instanceof DBException) {
      return InitFailure.report(binding, e.getMessage(), e);
    }
    return InitFailure.report(binding, "could not start: " + describe.apply(e), e);
  }

  /** One DB instance's (one client thread's) use of the shared connection. */
  public static final class Lease<C extends AutoCloseable> {
    private final SharedConnections<C> owner;
    private final SharedResource<C> shared;
    private final C connection;
    private boolean released;

    private Lease(SharedConnections<C> owner, SharedResource<C> shared, C connection) {
      this.owner = owner;
      this.shared = shared;
      this.connection = connection;
    }

    public C connection() {
      return connection;
    }

    /**
     * Makes this thread's batch and list operations reachable by the workloads on the same
     * thread (null: the binding offers none).
     */
    public void publish(BatchOperations batches, ListOperations lists) {
      BatchBindings.publish(batches);
      ListBindings.publish(lists);
    }

    /**
     * Withdraws what {@link #publish} made reachable and gives the connection back, closing it
     * if this was its last user. A second call does nothing.
     */
    public void release() throws DBException {
      if (released) {
        return;
      }
      released = true;
      BatchBindings.clear();
      ListBindings.clear();
      try {
        shared.release();
      } catch (Exception e) {
        throw new DBException(owner.binding + ": closing " + owner.what + " failed: "
            + owner.describe.apply(e));
      }
    }

    private void releaseQuietly() {
      try {
        release();
      } catch (DBException e) {
        // init() is failing with a better message
      }
    }
  }
}
