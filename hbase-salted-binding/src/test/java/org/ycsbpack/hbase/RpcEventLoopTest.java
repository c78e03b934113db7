package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.PropertyValues;
import site.ycsb.DBException;

/** {@code hbase.rpc.eventloop} and {@code hbase.rpc.eventloop.threads}: parsing (no server). */
class RpcEventLoopTest {
  /** HBase's key naming the event loop a NettyRpcClient takes from its Configuration. */
  private static final String HBASE_EVENT_LOOP_KEY = "hbase.rpc.client.event-loop.config";

  private static RpcEventLoop parse(String... kv) throws DBException {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return RpcEventLoop.of(new PropertyValues(p));
  }

  private static String rejection(String... kv) {
    return assertThrows(DBException.class, () -> parse(kv)).getMessage();
  }

  @Test
  void theDefaultIsTheDocumentedOne() throws DBException {
    assertEquals(new RpcEventLoop(RpcEventLoop.Transport.HBASE, 0), parse());
    assertEquals(new RpcEventLoop(RpcEventLoop.Transport.EPOLL, 1),
        parse("hbase.rpc.eventloop", "epoll"));
    assertEquals("epoll with 1 thread", parse("hbase.rpc.eventloop", "epoll").toString());
  }

  @Test
  void transportAndThreadsParseInAnyCase() throws DBException {
    assertEquals(new RpcEventLoop(RpcEventLoop.Transport.NIO, 4),
        parse("hbase.rpc.eventloop", "NIO", "hbase.rpc.eventloop.threads", "4"));
    assertEquals(new RpcEventLoop(RpcEventLoop.Transport.HBASE, 0),
        parse("hbase.rpc.eventloop", "hbase"));
  }

  @Test
  void aBadTransportOrThreadCountIsOneSentenceNamingTheProperty() {
    assertEquals("property hbase.rpc.eventloop='kqueue' is not valid: expected one of EPOLL, NIO, "
        + "HBASE (default: hbase)", rejection("hbase.rpc.eventloop", "kqueue"));
    assertEquals("property hbase.rpc.eventloop.threads='0' is not valid: expected a whole number "
        + "from 1 to 256 (default: 1)",
        rejection("hbase.rpc.eventloop", "epoll", "hbase.rpc.eventloop.threads", "0"));
    assertEquals("property hbase.rpc.eventloop.threads applies to hbase.rpc.eventloop=epoll or "
        + "nio only; with hbase, HBase's own setting hbase.netty.eventloop.rpcclient.thread.count "
        + "decides", rejection("hbase.rpc.eventloop", "hbase", "hbase.rpc.eventloop.threads", "2"));
  }

  @Test
  void hbasesDefaultLeavesTheClientConfigurationAlone() throws DBException {
    Configuration conf = new Configuration(false);
    parse().applyTo(conf);
    assertNull(conf.get(HBASE_EVENT_LOOP_KEY));
  }

  @Test
  void threadsWithoutATransportOfTheBindingAreRefused() {
    assertTrue(rejection("hbase.rpc.eventloop.threads", "2").startsWith(
        "property hbase.rpc.eventloop.threads applies to hbase.rpc.eventloop=epoll or nio only"));
  }
}
