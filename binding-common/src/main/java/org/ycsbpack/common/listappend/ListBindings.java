package org.ycsbpack.common.listappend;

/** Where a client thread's binding publishes its {@link ListOperations} (see BatchBindings). */
public final class ListBindings {
  private static final ThreadLocal<ListOperations> CURRENT = new ThreadLocal<>();

  private ListBindings() {
  }

  public static void publish(ListOperations ops) {
    CURRENT.set(ops);
  }

  public static void clear() {
    CURRENT.remove();
  }

  /** The binding of this client thread, or null when it has no list operations. */
  public static ListOperations current() {
    return CURRENT.get();
  }
}
