package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;
import org.ycsbpack.common.launch.FactsChild;
import org.ycsbpack.common.launch.Watched;
import org.ycsbpack.common.probe.Samples;

/**
 * {@code bin/ycsb servers hbase-salted -watch S}: the rounds ask each region server's info
 * server ({@code /jmx} over HTTP) and nothing else, at the addresses the facts name
 * ({@code sampled_from}). The facts need an HBase connection, and once the HBase client has
 * been used its JVM keeps two timers ticking every 10 ms until it exits (AbstractRpcClient's
 * and AsyncConnectionImpl's, static): 1% of a core, more than the rounds cost
 * (docs/benchmarks/server-watch.md). So a child JVM reads the facts ({@link FactsChild}) and
 * this one never opens a connection. The facts are read again as the watch ends only when the
 * table did not exist as it began (a load creates it): versions and settings do not change
 * within a phase.
 */
final class HBaseWatch implements Watched {
  private final FactsChild child;
  private final Map<String, InfoServer> nodes = new LinkedHashMap<>();
  private String factsLine;
  private boolean handedOut;

  private HBaseWatch(FactsChild child, String factsLine) {
    this.child = child;
    this.factsLine = factsLine;
    JsonElement from = JsonParser.parseString(factsLine).getAsJsonObject().get("sampled_from");
    if (from != null && from.isJsonObject()) {
      for (Map.Entry<String, JsonElement> e : from.getAsJsonObject().entrySet()) {
        nodes.put(e.getKey(), InfoServer.at(e.getValue().getAsString()));
      }
    }
  }

  /** The watch of the probe {@code probeMain} run with {@code args}: its child reads the facts. */
  static HBaseWatch open(Class<?> probeMain, String[] args) throws IOException {
    FactsChild child = new FactsChild(probeMain, args);
    return new HBaseWatch(child, child.factsLine());
  }

  @Override
  public String factsLine() throws IOException {
    if (handedOut && !hasSchema(factsLine)) {
      factsLine = child.factsLine();
    }
    handedOut = true;
    return factsLine;
  }

  private static boolean hasSchema(String line) {
    JsonObject facts = JsonParser.parseString(line).getAsJsonObject();
    return facts.has("schema") && !facts.get("schema").getAsString().isEmpty();
  }

  @Override
  public void sample(Samples out) {
    InfoServerRound.sample(nodes, out);
  }

  @Override
  public void close() {
    // no connection: each round's HTTP requests are closed as they end
  }
}
