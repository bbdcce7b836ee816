// page_assets.hpp: the teaching page's template, style sheet and script (core/page/assets/),
// compiled into the program so that the page needs no file at run time.
#ifndef AWB_CORE_PAGE_PAGE_ASSETS_HPP_
#define AWB_CORE_PAGE_PAGE_ASSETS_HPP_

#include <string>

namespace awb::core {

// page.html: the document, with the marks {{TITLE}}, {{CSS}}, {{JS}} and {{DATA}}.
const std::string& page_template_html();
const std::string& page_template_css();
const std::string& page_template_js();

}  // namespace awb::core

#endif  // AWB_CORE_PAGE_PAGE_ASSETS_HPP_
