package org.ycsbpack.hbase;

import static org.ycsbpack.hbase.HBaseProperties.EVENT_LOOP;
import static org.ycsbpack.hbase.HBaseProperties.EVENT_LOOP_THREADS;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ipc.NettyRpcClientConfigHelper;
import org.apache.hbase.thirdparty.io.netty.channel.Channel;
import org.apache.hbase.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.epoll.Epoll;
import org.apache.hbase.thirdparty.io.netty.channel.epoll.EpollEventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.epoll.EpollSocketChannel;
import org.apache.hbase.thirdparty.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.socket.nio.NioSocketChannel;
import org.apache.hbase.thirdparty.io.netty.util.concurrent.DefaultThreadFactory;
import org.ycsbpack.common.PropertyValues;
import site.ycsb.DBException;

/**
 * The netty event loop that carries the HBase RPC client's calls ({@code hbase.rpc.eventloop},
 * {@code hbase.rpc.eventloop.threads}). Left alone ({@code hbase}, the default), hbase-client
 * 2.6 runs a JVM-wide NIO group of two threads per core; one connection to a region server is
 * one channel, served by one thread of it. With {@code epoll} or {@code nio} the binding makes
 * the group itself and hands it to HBase ({@link NettyRpcClientConfigHelper#setEventLoopConfig}):
 * a setting to measure (bench-binding --variant); one epoll thread was no cheaper per operation
 * than HBase's default within this machine's noise, so the default stays HBase's.
 *
 * <p>HBase keeps that group in a JVM-wide table under one name, so every connection of a JVM
 * must agree on it: the first connection's choice stands and a different one fails init().
 * The group's threads are daemons and live as long as the JVM, as HBase's own default group's.
 */
final class RpcEventLoop {
  /** How the RPC client's sockets are driven. */
  enum Transport {
    /** netty's native Linux epoll transport (shipped in hbase-shaded-netty). */
    EPOLL,
    /** java.nio selectors, HBase's own choice, with the binding's thread count. */
    NIO,
    /** HBase's default left as it is: NIO, {@code hbase.netty.eventloop.rpcclient.thread.count}. */
    HBASE
  }

  private static RpcEventLoop jvmChoice;
  private static EventLoopGroup jvmGroup;

  final Transport transport;
  /** Event loop threads; 0 for {@link Transport#HBASE} (HBase's setting decides). */
  final int threads;

  RpcEventLoop(Transport transport, int threads) {
    this.transport = transport;
    this.threads = threads;
  }

  /** Parses and checks both properties; a bad value fails with one sentence naming it. */
  static RpcEventLoop of(PropertyValues values) throws DBException {
    Transport transport = values.enumValue(EVENT_LOOP, Transport.class);
    if (transport == Transport.HBASE) {
      if (values.isSet(EVENT_LOOP_THREADS)) {
        throw new DBException("property " + EVENT_LOOP_THREADS.name() + " applies to "
            + EVENT_LOOP.name() + "=epoll or nio only; with hbase, HBase's own setting "
            + "hbase.netty.eventloop.rpcclient.thread.count decides");
      }
      return new RpcEventLoop(transport, 0);
    }
    return new RpcEventLoop(transport, values.integer(EVENT_LOOP_THREADS, 1, 256));
  }

  /**
   * Points the HBase client of {@code conf} at this event loop, creating the JVM's group on
   * first use. Nothing to do for {@link Transport#HBASE}.
   */
  void applyTo(Configuration conf) throws DBException {
    if (transport == Transport.HBASE) {
      return;
    }
    synchronized (RpcEventLoop.class) {
      if (jvmChoice == null) {
        jvmGroup = newGroup();
        jvmChoice = this;
      } else if (!jvmChoice.equals(this)) {
        throw new DBException("property " + EVENT_LOOP.name() + ": this JVM's HBase client "
            + "already runs on " + jvmChoice + ", set by an earlier connection, and HBase keeps "
            + "one such event loop per JVM; give every client of the JVM the same "
            + EVENT_LOOP.name() + " and " + EVENT_LOOP_THREADS.name() + " (here: " + this + ")");
      }
      NettyRpcClientConfigHelper.setEventLoopConfig(conf, jvmGroup, channelClass());
    }
  }

  private EventLoopGroup newGroup() throws DBException {
    // the priority of HBase's own default group, so only transport and threads differ
    DefaultThreadFactory threadFactory = new DefaultThreadFactory(
        "hbase-salted-rpc-" + transport.name().toLowerCase(Locale.ROOT), true,
        Thread.MAX_PRIORITY);
    if (transport == Transport.NIO) {
      return new NioEventLoopGroup(threads, threadFactory);
    }
    if (!Epoll.isAvailable()) {
      Throwable cause = Epoll.unavailabilityCause();
      throw new DBException("property " + EVENT_LOOP.name() + "=epoll: netty's native epoll "
          + "transport does not load on this machine (" + (cause == null ? "not Linux"
          : cause.getClass().getSimpleName() + ": " + cause.getMessage()) + "); use "
          + EVENT_LOOP.name() + "=nio");
    }
    return new EpollEventLoopGroup(threads, threadFactory);
  }

  private Class<? extends Channel> channelClass() {
    return transport == Transport.EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RpcEventLoop && ((RpcEventLoop) o).transport == transport
        && ((RpcEventLoop) o).threads == threads;
  }

  @Override
  public int hashCode() {
    return transport.hashCode() * 31 + threads;
  }

  @Override
  public String toString() {
    return transport == Transport.HBASE ? "HBase's default event loop"
        : transport.name().toLowerCase(Locale.ROOT) + " with " + threads
            + (threads == 1 ? " thread" : " threads");
  }
}
