package org.ycsbpack.common;

/**
 * A resource shared by every client thread of one YCSB JVM (a CqlSession, an HBase
 * Connection). YCSB creates one DB instance per thread and calls init()/cleanup() on each, so
 * the first init() opens the resource and the last cleanup() closes it.
 *
 * @param <T> the resource type
 */
public final class SharedResource<T extends AutoCloseable> {

  /** Opens the resource; called once, under the holder's lock. */
  public interface Opener<T> {
    T open() throws Exception;
  }

  private T resource;
  private int users;

  /**
   * Returns the shared resource, opening it on first use. A failed open is not cached: the
   * next thread tries again (and most likely reports the same clear error).
   */
  public synchronized T acquire(Opener<T> opener) throws Exception {
    if (resource == null) {
      resource = opener.open();
    }
    users++;
    return resource;
  }

  /** Releases one use; closes the resource when the last user releases it. */
  public synchronized void release() throws Exception {
    if (users == 0) {
      return;
    }
    users--;
    if (users == 0 && resource != null) {
      T r = resource;
      resource = null;
      r.close();
    }
  }

  public synchronized int users() {
    return users;
  }
}
