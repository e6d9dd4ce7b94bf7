// Date-times on the wire: ISO 8601 with a time zone (an offset or Z), as events' timestamps and
// products' source times are written.

export const ISO_8601_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
