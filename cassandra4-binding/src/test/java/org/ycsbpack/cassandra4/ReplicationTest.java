package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class ReplicationTest {
  @Test
  void simpleStrategyTakesOneFactor() throws DBException {
    assertEquals("{'class': 'SimpleStrategy', 'replication_factor': 3}",
        Replication.parse("SimpleStrategy:3").cql());
  }

  @Test
  void networkTopologyStrategyTakesAFactorPerDatacenter() throws DBException {
    assertEquals("{'class': 'NetworkTopologyStrategy', 'datacenter1': 3, 'dc2': 2}",
        Replication.parse("NetworkTopologyStrategy:datacenter1=3,dc2=2").cql());
  }

  @Test
  void malformedSpecsNameThePropertyAndTheAcceptedForms() {
    for (String bad : new String[] {"SimpleStrategy", "SimpleStrategy:x", "SimpleStrategy:0",
        "NetworkTopologyStrategy:3", "NetworkTopologyStrategy:dc1=", "Everywhere:3",
        "NetworkTopologyStrategy:dc'1=3"}) {
      DBException e = assertThrows(DBException.class, () -> Replication.parse(bad), bad);
      assertTrue(e.getMessage().startsWith("property cassandra.replication='" + bad + "'"),
          e.getMessage());
      assertTrue(e.getMessage().contains("SimpleStrategy:N or NetworkTopologyStrategy:dc=N"));
    }
  }
}
