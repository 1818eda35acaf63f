// The workbook's SVG writer, for the book's figures and the timelines (timeline_svg):
// rectangles, lines and text, nothing else, and the two helpers it writes them with
// (escape for text, number for coordinates).
#pragma once

#include <sstream>
#include <string>

namespace wb::svg {

// `text` with &, <, > and " written as XML entities.
std::string escape(const std::string& text);

// `value` as printf's %g writes it.
std::string number(double value);

class Svg {
 public:
  // A white page under the drawing (save() adds it), so that the figure reads the same
  // in a light and a dark theme.
  Svg(double width, double height) : width_(width), height_(height) {}

  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = "none", double stroke_width = 0, double opacity = 1);

  void line(double x1, double y1, double x2, double y2, const std::string& stroke,
            double stroke_width, bool dashed = false);

  // anchor: "start", "middle" or "end"; the baseline is at y. The drawing grows to hold
  // the text, by a generous estimate of its width, so that no label is cut at its edge
  // (book.in_browser measures the labels as drawn).
  void text(double x, double y, const std::string& content, double size,
            const std::string& anchor = "start", bool bold = false, bool mono = false);

  // The document, white page first.
  std::string str() const;
  void save(const std::string& path) const;

 private:
  static constexpr double kMargin = 10;  // white space kept right of and under the last label
  double width_, height_;
  std::ostringstream body_;
};

}  // namespace wb::svg
