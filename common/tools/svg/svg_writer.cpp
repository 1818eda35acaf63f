// The workbook's SVG writer (svg_writer.hpp): escape, number and the Svg class.
#include "svg_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace wb::svg {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

void Svg::rect(double x, double y, double w, double h, const std::string& fill,
               const std::string& stroke, double stroke_width, double opacity) {
  body_ << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(w)
        << "\" height=\"" << number(h) << "\" fill=\"" << fill << "\"";
  if (opacity < 1) body_ << " fill-opacity=\"" << number(opacity) << "\"";
  if (stroke != "none") body_ << " stroke=\"" << stroke << "\" stroke-width=\"" << number(stroke_width) << "\"";
  body_ << "/>\n";
}

void Svg::line(double x1, double y1, double x2, double y2, const std::string& stroke,
               double stroke_width, bool dashed) {
  body_ << "<line x1=\"" << number(x1) << "\" y1=\"" << number(y1) << "\" x2=\"" << number(x2)
        << "\" y2=\"" << number(y2) << "\" stroke=\"" << stroke << "\" stroke-width=\""
        << number(stroke_width) << "\"" << (dashed ? " stroke-dasharray=\"4 3\"" : "") << "/>\n";
}

void Svg::text(double x, double y, const std::string& content, double size,
               const std::string& anchor, bool bold, bool mono) {
  const double estimated_width =
      static_cast<double>(content.size()) * size * (mono ? 0.62 : 0.6) * (bold ? 1.08 : 1.0);
  const double right = anchor == "start" ? x + estimated_width
                       : anchor == "middle" ? x + estimated_width / 2
                                            : x;
  width_ = std::max(width_, right + kMargin);
  height_ = std::max(height_, y + size / 3 + kMargin);
  body_ << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" font-size=\"" << number(size)
        << "\" text-anchor=\"" << anchor << "\"" << (bold ? " font-weight=\"bold\"" : "")
        << (mono ? " font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"" : "") << ">"
        << escape(content) << "</text>\n";
}

std::string Svg::str() const {
  // The white page under everything, as large as the drawing has grown.
  const std::string page = "<rect x=\"0\" y=\"0\" width=\"" + number(width_) + "\" height=\"" +
                           number(height_) + "\" fill=\"#ffffff\"/>\n";
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width_) << "\" height=\""
      << number(height_) << "\" viewBox=\"0 0 " << number(width_) << " " << number(height_)
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" fill=\"#222222\">\n"
      << page << body_.str() << "</svg>\n";
  return out.str();
}

void Svg::save(const std::string& path) const {
  std::ofstream out(path);
  out << str();
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace wb::svg
