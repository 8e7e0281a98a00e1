/// The version every program prints with `--version`: one number for the project.
public enum ProjectVersion {
  public static let current = "0.5.0"
}
