package org.ycsbpack.common;

import java.util.List;

/**
 * Renders a binding's property list as the Markdown table the README shows, so the table
 * and the code cannot drift apart (a test compares them).
 */
public final class PropertyTable {
  private PropertyTable() {
  }

  public static String markdown(List<BindingProperty> properties) {
    StringBuilder sb = new StringBuilder();
    sb.append("| property | default | meaning |\n");
    sb.append("| --- | --- | --- |\n");
    for (BindingProperty p : properties) {
      sb.append("| `").append(p.name()).append("` | ")
          .append(p.defaultValue() == null ? "(unset)" : "`" + p.defaultValue() + "`")
          .append(" | ").append(p.description().replace("|", "\\|")).append(" |\n");
    }
    return sb.toString();
  }
}
