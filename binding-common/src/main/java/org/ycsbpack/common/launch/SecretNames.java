package org.ycsbpack.common.launch;

import java.util.Collections;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a property or setting name holds a secret, by the words of
 * {@link SecretMaskingStream#SECRET_WORDS} (the same list as scripts' secrets.py).
 */
public final class SecretNames {
  /** What a secret value is printed as. */
  public static final String MASK = "*****";

  private SecretNames() {
  }

  public static boolean isSecret(String name) {
    return isSecret(name, Collections.emptySet());
  }

  /** As {@link #isSecret(String)}, but the words of {@code notSecret} do not count. */
  public static boolean isSecret(String name, Set<String> notSecret) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String word : SecretMaskingStream.SECRET_WORDS) {
      if (lower.contains(word) && !notSecret.contains(word)) {
        return true;
      }
    }
    return false;
  }
}
