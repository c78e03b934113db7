package org.ycsbpack.common.probe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.ycsbpack.common.launch.SecretNames;

/**
 * What a server probe read from the servers: versions of the cluster and of each node, the
 * machine (cores, memory) each node runs on, the server settings, where they came from, the
 * binding's schema, and one sentence per thing it could not read. Printed as the probe's first
 * JSON object.
 */
public final class ServerFacts {
  private final String database;
  private String clusterVersion;
  private final Map<String, String> nodeVersions = new TreeMap<>();
  private final Map<String, Map<String, Object>> machines = new TreeMap<>();
  private final Map<String, String> settings = new TreeMap<>();
  private String settingsSource = "";
  private String schema = "";
  private final Map<String, String> sampledFrom = new TreeMap<>();
  private final List<String> skipped = new ArrayList<>();
  private final Set<String> notSecret = new HashSet<>();

  public ServerFacts(String database) {
    this.database = database;
  }

  /**
   * Says that in this server's setting names {@code word} of the secret words names no secret
   * (Cassandra's {@code num_tokens} and {@code initial_token} are the ring's tokens).
   */
  public ServerFacts notSecret(String word) {
    notSecret.add(word);
    return this;
  }

  /** The cluster's version as the cluster reports it (HBase); else derived from the nodes. */
  public void clusterVersion(String version) {
    clusterVersion = version;
  }

  public void nodeVersion(String node, String version) {
    nodeVersions.put(node, version);
  }

  /** The machine {@code node} runs on, as the node's JVM sees it. */
  public void machine(String node, Machine machine) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", machine.cores);
    m.put("memory_bytes", machine.memoryBytes);
    machines.put(node, m);
  }

  /** One server setting; the value of a secret one (a password, a key) is masked. */
  public void setting(String name, String value) {
    boolean secret = SecretNames.isSecret(name, notSecret);
    settings.put(name, secret ? SecretNames.MASK : String.valueOf(value));
  }

  public void settingsSource(String phrase) {
    settingsSource = phrase;
  }

  public void schema(String text) {
    schema = text;
  }

  /** Where a watch reads {@code node}'s samples (e.g. its info server's address). */
  public void sampledFrom(String node, String where) {
    sampledFrom.put(node, where);
  }

  /** One sentence: what could not be read, and why. */
  public void skip(String sentence) {
    skipped.add(sentence);
  }

  public int settingCount() {
    return settings.size();
  }

  /** The facts in their printed order. */
  public Map<String, Object> toMap() {
    Map<String, Object> versions = new LinkedHashMap<>();
    versions.put("cluster", clusterVersion != null ? clusterVersion : derivedVersion());
    versions.put("nodes", nodeVersions);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("database", database);
    m.put("versions", versions);
    m.put("machines", machines);
    m.put("settings", settings);
    m.put("settings_source", settingsSource);
    m.put("schema", schema);
    if (!sampledFrom.isEmpty()) {
      m.put("sampled_from", sampledFrom);
    }
    m.put("skipped", skipped);
    return m;
  }

  /** The nodes' one version, "mixed: a, b" when they differ, "" when none was read. */
  private String derivedVersion() {
    TreeSet<String> distinct = new TreeSet<>(nodeVersions.values());
    if (distinct.size() <= 1) {
      return distinct.isEmpty() ? "" : distinct.first();
    }
    return "mixed: " + String.join(", ", distinct);
  }
}
