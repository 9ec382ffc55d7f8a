// The store's shared page chrome, as a server template would write it: a header with search,
// account and cart, a department menu of 48 links and a footer of 28. Every page of the store
// carries the same chrome, the mega-menu shape cross-baseline dedup was designed for (docs/design.md).
const DEPARTMENTS = {
  Computers: ['Laptops', 'Desktops', 'Monitors', 'Tablets', 'Printers', 'Storage', 'Networking', 'Software'],
  Phones: ['Smartphones', 'Cases', 'Chargers', 'Headsets', 'Smartwatches', 'Fitness trackers', 'Power banks', 'Screen protectors'],
  'TV & Audio': ['Televisions', 'Soundbars', 'Speakers', 'Headphones', 'Turntables', 'Projectors', 'Streaming', 'Cables'],
  Cameras: ['Mirrorless', 'DSLR', 'Action cameras', 'Lenses', 'Tripods', 'Drones', 'Memory cards', 'Camera bags'],
  Home: ['Vacuums', 'Coffee makers', 'Air purifiers', 'Smart lighting', 'Thermostats', 'Kitchen scales', 'Fans', 'Heaters'],
  Gaming: ['Consoles', 'Controllers', 'Gaming chairs', 'Keyboards', 'Mice', 'Gaming headsets', 'VR', 'Gift cards'],
};
const FOOTER = {
  'Customer service': ['Help center', 'Track an order', 'Returns', 'Shipping rates', 'Warranty', 'Contact us', 'Product recalls'],
  'About us': ['Our story', 'Careers', 'Press', 'Sustainability', 'Investors', 'Affiliates', 'Store locator'],
  'Shop with us': ['Gift cards', 'Student discount', 'Trade-in', 'Financing', 'Business accounts', 'Price match', 'Outlet'],
  Legal: ['Terms of use', 'Privacy', 'Cookies', 'Accessibility', 'Modern slavery statement', 'Sitemap', 'Do not sell my data'],
};
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function cartCount() { return Number(sessionStorage.getItem('cart') || 0); }

export function addToCart() {
  sessionStorage.setItem('cart', String(cartCount() + 1));
  document.getElementById('cart-link').textContent = `Cart (${cartCount()})`;
}

export function chrome() {
  const header = document.createElement('header');
  header.innerHTML = `
    <a href="index.html" class="logo">Voltmart home</a>
    <form role="search" action="search.html"><input type="search" name="q" aria-label="Search products">
      <button type="submit">Search</button></form>
    <a href="account.html">Sign in</a>
    <a href="cart.html" id="cart-link">Cart (${cartCount()})</a>`;
  const nav = document.createElement('nav');
  nav.setAttribute('aria-label', 'Departments');
  nav.innerHTML = Object.entries(DEPARTMENTS).map(([dept, items]) =>
    `<div class="dept"><h2>${dept}</h2><ul>${items.map((i) =>
      `<li><a href="category.html?c=${slug(i)}">${i}</a></li>`).join('')}</ul></div>`).join('');
  const footer = document.createElement('footer');
  footer.innerHTML = Object.entries(FOOTER).map(([col, items]) =>
    `<div class="col"><h2>${col}</h2><ul>${items.map((i) => `<li><a href="info.html?p=${slug(i)}">${i}</a></li>`).join('')}</ul></div>`).join('') +
    '<p>© 2026 Voltmart. Prices include VAT.</p>';
  document.body.prepend(header, nav);
  document.body.append(footer);
}
