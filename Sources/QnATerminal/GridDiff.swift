/// Which cells changed between two frames: all that the backend repaints.
public enum GridDiff {
  /// Indices (row-major) of the cells of `new` that differ from `old`; every cell when there
  /// is no comparable old frame (first frame, resize, Ctrl-L).
  public static func changedCells(from old: ScreenGrid?, to new: ScreenGrid) -> [Int] {
    guard let old, old.rows == new.rows, old.columns == new.columns else {
      return Array(new.cells.indices)
    }
    var changed: [Int] = []
    new.cells.withUnsafeBufferPointer { newCells in
      old.cells.withUnsafeBufferPointer { oldCells in
        for index in newCells.indices where newCells[index] != oldCells[index] {
          changed.append(index)
        }
      }
    }
    return changed
  }
}
