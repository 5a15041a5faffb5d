/* SPDX-License-Identifier: GPL-2.0 */
/* The browser view's files, built in (web/embed.cmake makes web-assets.c). */
#ifndef LUPE_CMD_WEB_ASSETS_H
#define LUPE_CMD_WEB_ASSETS_H

extern const char web_asset_index_html[];
extern const char web_asset_app_js[];
extern const char web_asset_style_css[];

#endif
