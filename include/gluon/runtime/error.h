#pragma once
// Typed exceptions. Every message is meant for a user: it says what was expected, what was found,
// and where (file, field). No assert() guards user input anywhere in gluon.
//
//   Error            base of all gluon errors
//   InputError       bad user input: a flag, a TOML key, an impossible lattice
//   FileFormatError  a file that does not parse or verify: names file, field, expected, found
//   IoError          the operating system refused a read/write/rename
//   OutOfMemoryError an allocation failed: says how much was asked and how much is free
//   DeviceError      a CUDA runtime/driver call failed, or CUDA was asked for but is absent
//   NumericalError   NaN/Inf or breakdown in a computation
#include <stdexcept>
#include <string>

namespace gluon {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InputError : public Error {
 public:
  using Error::Error;
};

class IoError : public Error {
 public:
  using Error::Error;
};

class FileFormatError : public Error {
 public:
  // "<file>: <field>: expected <expected>, found <found>"
  FileFormatError(const std::string& file, const std::string& field, const std::string& expected,
                  const std::string& found);
  // Free-form detail, still prefixed by the file name.
  FileFormatError(const std::string& file, const std::string& message);
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_, field_;
};

class OutOfMemoryError : public Error {
 public:
  using Error::Error;
};

class DeviceError : public Error {
 public:
  using Error::Error;
};

class NumericalError : public Error {
 public:
  using Error::Error;
};

}  // namespace gluon
