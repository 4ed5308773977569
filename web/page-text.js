// The page's own words (the loading overlay, the crash message, the notices about saving and
// loading) in English and Simplified Chinese, and the learner's language for them. Loaded before the
// other page scripts: the loader needs these texts before the module exists, and a failed start
// still explains itself in the learner's language.
//
// Which language: before the lab's first frame (the loading overlay, a failed start), the one saved
// with the learner's work, else the browser's. From the first frame on, the lab's: the accessible view
// declares it on <main id="a11y"> whenever it changes (web/accessible-view.js), so a language changed
// by an API call reaches these texts with the next frame; persistence says so at once when restoring
// saved work changes it. The page's <html lang> follows.
'use strict';
(function () {
  // {name} is filled by text(key, {name: value}); every text has both languages and the same
  // names (tests/browser/page_text.test.mjs). Terms follow assets/ui_text.json (分享链接, 实验台, 载入).
  // The notices of web/persistence.js are shown in the lab too, so their Chinese keeps to the
  // characters the lab's embedded font has (those of assets/): 本地存档, not 浏览器存储.
  const TEXTS = {
    title: { en: 'HeadLab: multi-head attention, live', zh: 'HeadLab：多头注意力，实时演示' },
    canvas_label: { en: 'HeadLab attention lab (interactive canvas)', zh: 'HeadLab 注意力实验台（交互式画布）' },
    text_view_label: { en: 'HeadLab lab, as text', zh: 'HeadLab 实验台的文字版' },
    text_input_label: { en: 'Text for the active field of the lab', zh: '实验台中当前文本框的文字' },
    tagline: { en: 'How multi-head attention works, one head at a time.', zh: '多头注意力如何工作，一次看一个头。' },
    loading: { en: 'Loading the attention engine…', zh: '正在载入注意力引擎……' },
    loading_progress: { en: 'Loading the attention engine… {received} of {total} KB',
                        zh: '正在载入注意力引擎……已下载 {received} / {total} KB' },
    starting: { en: 'Starting…', zh: '正在启动……' },
    reload: { en: 'Reload', zh: '重新载入' },
    no_webassembly: {
      en: 'This browser cannot run WebAssembly, which HeadLab needs. Please open the page in a current ' +
          'version of Chrome, Edge, Firefox or Safari.',
      zh: '这个浏览器无法运行 HeadLab 需要的 WebAssembly。请用最新版本的 Chrome、Edge、Firefox 或 Safari 打开本页。',
    },
    no_webgl2: {
      en: 'This browser or device has WebGL2 turned off or unsupported, and HeadLab draws with it. ' +
          'Enable hardware acceleration in the browser settings, or try another browser.',
      zh: 'HeadLab 用 WebGL2 绘图，但这个浏览器或设备关闭了 WebGL2 或不支持它。请在浏览器设置中开启硬件加速，或换一个浏览器。',
    },
    could_not_start: { en: 'HeadLab could not start: {reason}', zh: 'HeadLab 无法启动：{reason}' },
    download_failed: { en: 'could not download {url} (HTTP {status})', zh: '无法下载 {url}（HTTP {status}）' },
    script_missing: { en: '{name} did not load. Is the site complete?', zh: '{name} 没有载入。网站的文件是否完整？' },
    crashed: {
      en: 'HeadLab hit an internal error and stopped ({what}). Your work up to the last autosave{saved_at} ' +
          'is kept in this browser and comes back when you reload. Sorry about that.',
      zh: 'HeadLab 遇到内部错误，已经停止运行（{what}）。你的实验台截至上次自动保存{saved_at}的内容仍在这个浏览器里，' +
          '重新载入页面就会恢复。很抱歉。',
    },
    crashed_saved_at: { en: ' (saved at {time})', zh: '（{time}）' },
    file_not_json: { en: '{source} is not valid JSON; your current work is unchanged.',
                     zh: '{source} 不是格式正确的 JSON；当前的实验台没有改变。' },
    file_not_loaded: { en: '{source} was not loaded: {reason}. Your current work is unchanged.',
                       zh: '{source} 没有载入：{reason}。当前的实验台没有改变。' },
    file_too_large: { en: '{name} is larger than 32 MB and was not opened.', zh: '{name} 大于 32 MB，没有打开。' },
    file_opened: { en: 'Opened {name}.', zh: '已打开 {name}。' },
    autosave_failed: { en: 'Autosave failed (browser storage is full or disabled). Export your model to keep it.',
                       zh: '无法自动保存（本地存档空间不够，或者不可用）。请导出模型文件来保留它。' },
    autosave_too_large: { en: 'This model is too large to autosave in the browser, so autosave is paused until it is smaller. Export the model to keep it.',
                          zh: '这个模型太大，无法自动保存；在它变小之前，自动保存暂停。请导出模型文件来保留它。' },
    autosave_subword: { en: 'A model that reads subword tokens (the real-text model, or one trained on real text) is not autosaved or put in links: its 6,144-token vocabulary is too large for browser storage. Your last autosave, from before it, stays; the real-text model is one click away under Model settings.',
                        zh: '读取子词词元的模型（真实文本模型，或在真实文本上训练的模型）不会自动保存，也不能放进分享链接：它 6,144 个词元的词表对浏览器的存档空间来说太大。之前最后一次自动保存的内容仍然保留；真实文本模型在“模型设置”里点一下即可再次选用。' },
    autosave_back: { en: 'Autosave is on again.', zh: '自动保存已恢复。' },
    link_opened: { en: 'Opened the shared lab.', zh: '已打开分享的实验台。' },
    link_opened_undo: { en: 'Opened the shared lab. Undo (Ctrl+Z) goes back to your own work.',
                        zh: '已打开分享的实验台。撤销（Ctrl+Z）可回到你自己的实验台。' },
    link_unreadable: { en: 'The shared link could not be read ({reason}); your own work is unchanged.',
                       zh: '无法读取分享链接（{reason}）；你自己的实验台没有改变。' },
    link_copied: { en: 'Link copied: anyone who opens it gets this exact lab.',
                   zh: '链接已复制：打开它的人会看到和这里完全相同的实验台。' },
    link_copy_by_hand: { en: 'Copy the link from the address bar: {link}…', zh: '请手动复制当前页面的链接：{link}…' },
    link_failed: { en: 'The link could not be made: {reason}', zh: '无法生成链接：{reason}' },
    restore_set_aside: {
      en: 'Your saved work could not be restored ({reason}). It was kept under "{key}" in this browser\'s ' +
          'storage; starting clean.',
      zh: '无法恢复你保存的实验台（{reason}）。它已另存在本地存档中，名称为“{key}”；现在从头开始。',
    },
    restore_stopped_last_time: { en: 'restoring it stopped HeadLab last time', zh: '上次恢复它时 HeadLab 出错中断了' },
    checkpoint_reading: { en: 'Reading {name}: {read} of {total} MB', zh: '正在读取 {name}：{read} / {total} MB' },
    checkpoint_cancel: { en: 'Cancel', zh: '取消' },
    checkpoint_open: { en: 'Open', zh: '打开' },
    checkpoint_heads_prompt: { en: 'No config.json came with {name}: how many heads per layer? (GPT-2 small and distilgpt2: 12, medium: 16) ',
                               zh: '{name} 没有附带 config.json：每层有几个头？（GPT-2 small 和 distilgpt2：12，medium：16）' },
    checkpoint_failed: { en: 'The checkpoint was not opened: {reason}. Your model is unchanged.',
                         zh: '检查点没有打开：{reason}。你的模型没有改变。' },
    checkpoint_no_weights: { en: 'choose a model.safetensors file (and its config.json)', zh: '请选择 model.safetensors 文件（及其 config.json）' },
    checkpoint_busy: { en: 'another checkpoint is still being read', zh: '另一个检查点还在读取中' },
    checkpoint_too_short: { en: '{name} is too short to be a safetensors file', zh: '{name} 太短，不是 safetensors 文件' },
    checkpoint_bad_header: { en: '{name} has no readable safetensors header (the file may be cut short)',
                             zh: '{name} 没有可读的 safetensors 文件头（文件可能不完整）' },
    restore_failed: { en: 'Saved work could not be restored: {reason}', zh: '无法恢复保存的实验台：{reason}' },
  };
  const TAGS = { en: 'en', zh: 'zh-Hans' };  // as the accessible view declares them

  // The language a saved lab carries, or ''. Read from the text, not parsed: a saved lab can be
  // megabytes, and "language" is a key of the saved state's top level only (the model file has none,
  // docs/model-format.md).
  function languageOf(savedText) {
    const match = typeof savedText === 'string' && /"language"\s*:\s*"(en|zh)"/.exec(savedText);
    return match ? match[1] : '';
  }

  // The language saved with the learner's work (web/persistence.js's autosave, same key), or ''.
  function savedLanguage() {
    try {
      return languageOf(window.localStorage.getItem('headlab.state'));
    } catch (e) {
      return '';  // storage disabled or sandboxed
    }
  }

  // The first of the browser's languages that HeadLab speaks (zh-CN, zh-TW, zh all read Chinese).
  function browserLanguage() {
    const preferred = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language || ''];
    for (const tag of preferred) {
      if (/^zh\b/i.test(tag)) return 'zh';
      if (/^en\b/i.test(tag)) return 'en';
    }
    return 'en';
  }

  let current = savedLanguage() || browserLanguage();

  function text(key, values = {}) {
    const entry = TEXTS[key];
    if (!entry) return key;  // the lint test keeps this from happening; a message must never throw
    return (entry[current] || entry.en).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }

  // Elements marked data-text="key" (their text) or data-text-label="key" (their aria-label).
  function translatePage() {
    document.documentElement.lang = TAGS[current];
    for (const element of document.querySelectorAll('[data-text]')) element.textContent = text(element.dataset.text);
    for (const element of document.querySelectorAll('[data-text-label]')) element.setAttribute('aria-label', text(element.dataset.textLabel));
  }

  function setLanguage(language) {
    if (!TAGS[language] || language === current) return;
    current = language;
    translatePage();
  }

  // Called once the lab has drawn its first frame: from then on the texts speak the lab's language.
  // Persistence also calls setLanguage when it has just changed that language itself (restoring saved
  // work), before a frame could show it.
  function followTheLab() {
    const view = document.getElementById('a11y');
    const follow = () => { if (view.lang) setLanguage(view.lang.startsWith('zh') ? 'zh' : 'en'); };
    follow();
    new MutationObserver(follow).observe(view, { attributes: true, attributeFilter: ['lang'] });
  }

  translatePage();

  window.headlabPageText = {
    text,
    setLanguage,
    followTheLab,
    languageOf,
    browserLanguage,
    language: () => current,
    locale: () => TAGS[current],  // for toLocaleTimeString and the like
    texts: TEXTS,
  };
})();
