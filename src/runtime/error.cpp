#include "gluon/runtime/error.h"

namespace gluon {

FileFormatError::FileFormatError(const std::string& file, const std::string& field,
                                 const std::string& expected, const std::string& found)
    : Error(file + ": " + field + ": expected " + expected + ", found " + found),
      file_(file),
      field_(field) {}

FileFormatError::FileFormatError(const std::string& file, const std::string& message)
    : Error(file + ": " + message), file_(file) {}

}  // namespace gluon
