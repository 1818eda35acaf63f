// The book's figures, drawn from the layouts the kernels use.
//
//   book_figures OUTPUT_FOLDER
//
// writes one SVG file per figure into OUTPUT_FOLDER (the book's build runs it). Every
// colour and every label comes from wb::Layout objects: the very ones the chapter's
// kernels use where its header defines them, built from its header's constants where a
// figure compares a family of them (a tile at several strides), and walked by the same
// loops as the kernels: a change of tile or thread layout changes the figures at the
// next build of the book, and nothing is drawn by hand. What a figure claims (each
// element copied exactly once, ...) is checked here too: if it stops being true, the
// program fails and the book does not build.
//
// Host-only C++: it includes wb/layout.hpp, which compiles without CUDA, and the
// chapters' headers for their tile shapes and layouts. The SVG writer is svg.hpp, the
// drawing the chapters share tile_drawing.hpp, and each chapter's figures its chNN_*.cpp.
#include <cstdio>
#include <exception>
#include <string>

#include "figures.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]);
    return 2;
  }
  const std::string folder = argv[1];
  try {
    figures::chapter1::draw(folder);
    figures::chapter2::draw(folder);
    figures::chapter3::draw(folder);
    figures::chapter4::draw(folder);
    figures::chapter5::draw(folder);
    figures::chapter6::draw(folder);
    figures::chapter8::draw(folder);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "figures: %s\n", error.what());
    return 1;
  }
  return 0;
}
