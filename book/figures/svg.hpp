// The book's figures draw with the workbook's SVG writer (common/tools/svg), under the
// names they use inside namespace figures.
#pragma once

#include "svg_writer.hpp"

namespace figures {

using wb::svg::escape;
using wb::svg::number;
using wb::svg::Svg;

}  // namespace figures
