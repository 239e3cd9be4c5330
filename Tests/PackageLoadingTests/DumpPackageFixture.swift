/// `swift package dump-package` output (Swift 6.3.1) for a manifest at /work/checkout with a nested
/// `.package(path: "Nested")`, two remote dependencies, a dependency outside the repository, a custom
/// `path:`, a conditional dependency, resources, excludes, a plugin and its usage.
let rootDumpFixture = #"""
  {
    "cLanguageStandard": null,
    "cxxLanguageStandard": null,
    "defaultLocalization": null,
    "dependencies": [
      {
        "fileSystem": [
          {
            "identity": "nested",
            "path": "/work/checkout/Nested",
            "productFilter": null,
            "traits": [
              {
                "name": "default"
              }
            ]
          }
        ]
      },
      {
        "sourceControl": [
          {
            "identity": "foo",
            "location": {
              "remote": [
                {
                  "urlString": "https://example.invalid/nowhere/foo.git"
                }
              ]
            },
            "productFilter": null,
            "requirement": {
              "range": [
                {
                  "lowerBound": "1.2.0",
                  "upperBound": "2.0.0"
                }
              ]
            },
            "traits": [
              {
                "name": "default"
              }
            ]
          }
        ]
      },
      {
        "sourceControl": [
          {
            "identity": "bar",
            "location": {
              "remote": [
                {
                  "urlString": "https://example.invalid/bar"
                }
              ]
            },
            "productFilter": null,
            "requirement": {
              "branch": [
                "main"
              ]
            },
            "traits": [
              {
                "name": "default"
              }
            ]
          }
        ]
      },
      {
        "fileSystem": [
          {
            "identity": "outside",
            "path": "/opt/outside",
            "productFilter": null,
            "traits": [
              {
                "name": "default"
              }
            ]
          }
        ]
      }
    ],
    "name": "Root",
    "packageKind": {
      "root": [
        "/work/checkout"
      ]
    },
    "pkgConfig": null,
    "platforms": [
      {
        "options": [],
        "platformName": "macos",
        "version": "13.0"
      }
    ],
    "products": [
      {
        "name": "A",
        "settings": [],
        "targets": [
          "A"
        ],
        "type": {
          "library": [
            "automatic"
          ]
        }
      }
    ],
    "providers": null,
    "swiftLanguageVersions": [
      "5"
    ],
    "targets": [
      {
        "dependencies": [
          {
            "product": [
              "N",
              "Nested",
              null,
              null
            ]
          },
          {
            "product": [
              "Foo",
              "foo",
              null,
              null
            ]
          },
          {
            "byName": [
              "B",
              null
            ]
          },
          {
            "target": [
              "B",
              {
                "platformNames": [
                  "linux"
                ]
              }
            ]
          }
        ],
        "exclude": [
          "x"
        ],
        "name": "A",
        "packageAccess": true,
        "pluginUsages": [
          {
            "plugin": [
              "P",
              null
            ]
          }
        ],
        "resources": [
          {
            "path": "Resources",
            "rule": {
              "process": {}
            }
          }
        ],
        "settings": [],
        "type": "regular"
      },
      {
        "dependencies": [],
        "exclude": [],
        "name": "B",
        "packageAccess": true,
        "path": "Custom/B",
        "resources": [],
        "settings": [],
        "type": "regular"
      },
      {
        "dependencies": [
          {
            "byName": [
              "A",
              null
            ]
          }
        ],
        "exclude": [],
        "name": "ATests",
        "packageAccess": true,
        "resources": [],
        "settings": [],
        "type": "test"
      },
      {
        "dependencies": [],
        "exclude": [],
        "name": "P",
        "packageAccess": true,
        "pluginCapability": {
          "buildTool": null
        },
        "resources": [],
        "settings": [],
        "type": "plugin"
      }
    ],
    "toolsVersion": {
      "_version": "5.9.0",
      "experimentalFeatures": []
    },
    "traits": []
  }
  """#
