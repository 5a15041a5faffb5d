# Build step of the browser view: web/index.html, app.js and style.css as C
# strings in one source file, so that lupe serves and writes the page with
# no file beside it. Run as: cmake -DSRC=web -DOUT=web-assets.c -P embed.cmake
set(text "/* made from ${SRC} by web/embed.cmake: edit those files, not this one */\n")
foreach(name index.html app.js style.css)
  file(READ ${SRC}/${name} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" hex "${hex}")
  string(MAKE_C_IDENTIFIER ${name} id)
  string(APPEND text "const char web_asset_${id}[] = {\n${hex}0x00};\n")
endforeach()
file(WRITE ${OUT}.tmp "${text}")
file(RENAME ${OUT}.tmp ${OUT})
