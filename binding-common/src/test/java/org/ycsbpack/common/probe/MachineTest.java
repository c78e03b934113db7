package org.ycsbpack.common.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MachineTest {
  private static Map<String, Object> bean(Object cores, Object memory, Object oldMemory) {
    Map<String, Object> m = new HashMap<>();
    m.put(Machine.CORES, cores);
    m.put(Machine.MEMORY, memory);
    m.put(Machine.OLD_MEMORY, oldMemory);
    m.values().removeIf(v -> v == null);
    return m;
  }

  @Test
  void coresAndTotalMemorySizeComeFromTheOperatingSystemBean() {
    Machine m = Machine.of(bean(2, 25_165_824_000L, 1L));
    assertEquals(2, m.cores);
    assertEquals(25_165_824_000L, m.memoryBytes);
    // as a /jmx servlet's JSON gives them: doubles
    Machine d = Machine.of(bean(8.0, 6.8719476736E10, null));
    assertEquals(8, d.cores);
    assertEquals(68_719_476_736L, d.memoryBytes);
  }

  @Test
  void aJvmBefore14GivesTotalPhysicalMemorySizeInstead() {
    assertEquals(4_294_967_296L, Machine.of(bean(4, null, 4_294_967_296L)).memoryBytes);
    assertEquals(4_294_967_296L, Machine.of(bean(4, 0L, 4_294_967_296L)).memoryBytes);
  }

  @Test
  void missingOrNonsenseAttributesAreOneSentence() {
    assertEquals("java.lang:type=OperatingSystem has no positive AvailableProcessors (null)",
        assertThrows(IllegalArgumentException.class,
            () -> Machine.of(bean(null, 1024L, null))).getMessage());
    assertEquals("java.lang:type=OperatingSystem has no positive AvailableProcessors (1.5)",
        assertThrows(IllegalArgumentException.class,
            () -> Machine.of(bean(1.5, 1024L, null))).getMessage());
    assertEquals("java.lang:type=OperatingSystem has neither a positive TotalMemorySize nor "
        + "TotalPhysicalMemorySize (-1, null)", assertThrows(IllegalArgumentException.class,
            () -> Machine.of(bean(2, -1L, null))).getMessage());
  }

  @Test
  void factsPrintEachNodesMachineAfterTheVersions() {
    ServerFacts f = new ServerFacts("cassandra");
    f.nodeVersion("127.0.0.2", "5.0.9");
    f.machine("127.0.0.2", new Machine(2, 25_165_824_000L));
    f.machine("127.0.0.1", Machine.of(bean(2, 25_165_824_000L, null)));
    assertEquals("{\"database\":\"cassandra\",\"versions\":{\"cluster\":\"5.0.9\",\"nodes\":"
        + "{\"127.0.0.2\":\"5.0.9\"}},\"machines\":{\"127.0.0.1\":{\"cores\":2,\"memory_bytes\":"
        + "25165824000},\"127.0.0.2\":{\"cores\":2,\"memory_bytes\":25165824000}},\"settings\":"
        + "{},\"settings_source\":\"\",\"schema\":\"\",\"skipped\":[]}", Json.compact(f.toMap()));
  }
}
