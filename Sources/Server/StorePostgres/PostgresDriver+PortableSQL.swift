import PostgresNIO
import QnAStore

extension PostgresDriver {
  /// A statement written once for both databases (`PortableSQL`), its values bound in order.
  package static func query(_ statement: PortableSQL, _ values: any PostgresDynamicTypeEncodable...)
    -> PostgresQuery
  {
    var bindings = PostgresBindings()
    for value in values { bindings.append(value) }
    return PostgresQuery(unsafeSQL: statement.postgres, binds: bindings)
  }
}
