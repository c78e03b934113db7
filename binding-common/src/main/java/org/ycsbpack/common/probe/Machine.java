package org.ycsbpack.common.probe;

import java.util.Map;

/**
 * The machine a server node runs on as its JVM sees it (a container's limits included): cores
 * and memory, from the {@code java.lang:type=OperatingSystem} MBean, over JMX or an HTTP /jmx.
 */
public final class Machine {
  public static final String OS_BEAN = "java.lang:type=OperatingSystem";
  public static final String CORES = "AvailableProcessors";
  /** JDK 14+; container-aware. */
  public static final String MEMORY = "TotalMemorySize";
  /** Before JDK 14, and deprecated since. */
  public static final String OLD_MEMORY = "TotalPhysicalMemorySize";
  /** The attributes {@link #of} reads. */
  public static final String[] ATTRIBUTES = {CORES, MEMORY, OLD_MEMORY};

  public final int cores;
  public final long memoryBytes;

  public Machine(int cores, long memoryBytes) {
    this.cores = cores;
    this.memoryBytes = memoryBytes;
  }

  /**
   * The machine of the bean's attributes (name -> value; absent ones left out): TotalMemorySize,
   * else TotalPhysicalMemorySize. An IllegalArgumentException of one sentence when the cores or
   * the memory are missing or not a positive number.
   */
  public static Machine of(Map<String, ?> attributes) {
    long cores = positive(attributes.get(CORES));
    if (cores < 0) {
      throw new IllegalArgumentException(OS_BEAN + " has no positive " + CORES + " ("
          + attributes.get(CORES) + ")");
    }
    long memory = positive(attributes.get(MEMORY));
    if (memory < 0) {
      memory = positive(attributes.get(OLD_MEMORY));
    }
    if (memory < 0) {
      throw new IllegalArgumentException(OS_BEAN + " has neither a positive " + MEMORY
          + " nor " + OLD_MEMORY + " (" + attributes.get(MEMORY) + ", "
          + attributes.get(OLD_MEMORY) + ")");
    }
    return new Machine((int) Math.min(cores, Integer.MAX_VALUE), memory);
  }

  /** {@code value} as a whole number when it is a positive one, else -1. */
  private static long positive(Object value) {
    if (!(value instanceof Number)) {
      return -1;
    }
    double d = ((Number) value).doubleValue();
    return d >= 1 && d == Math.rint(d) ? ((Number) value).longValue() : -1;
  }
}
