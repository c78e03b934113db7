package org.ycsbpack.hbase;

import java.util.Map;
import java.util.TreeMap;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * The settings of Hadoop's ConfServlet ({@code /conf?format=json} of an HBase info server) that
 * differ from the defaults: those whose resource is not a {@code *-default.xml} (hbase-site.xml,
 * core-site.xml, set programmatically at start-up, ...).
 */
final class ConfSettings {
  private ConfSettings() {
  }

  /** Name -> value of the non-default properties of {@code json}. */
  static Map<String, String> nonDefault(String json) {
    Map<String, String> out = new TreeMap<>();
    JsonElement root = JsonParser.parseString(json);
    if (!root.isJsonObject() || !root.getAsJsonObject().has("properties")) {
      throw new IllegalArgumentException("not the ConfServlet's JSON: no \"properties\" list");
    }
    for (JsonElement e : root.getAsJsonObject().getAsJsonArray("properties")) {
      JsonObject p = e.getAsJsonObject();
      String resource = text(p, "resource");
      if (resource.endsWith("-default.xml")) {
        continue;
      }
      out.put(text(p, "key"), text(p, "value"));
    }
    return out;
  }

  private static String text(JsonObject o, String member) {
    JsonElement e = o.get(member);
    return e == null || e.isJsonNull() ? "" : e.getAsString();
  }
}
